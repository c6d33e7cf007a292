// GET /api/integrations/actions?apps=tracker — the actions an agent runtime may call, with
// their parameters as JSON Schema (the shape of CrewAI's platform-tools transport).
import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { integrationRoute } from "@/lib/api/route";
import { json } from "@/lib/http/respond";
import { APP_NAMES, describeActions, grantedActions } from "@/lib/tracker/actions";
import { TrackerError } from "@/lib/tracker/errors";

export const dynamic = "force-dynamic";

export const GET = integrationRoute(integrationsApi.listActions, async ({ query }) => {
  const apps = (query.apps ?? APP_NAMES[0])
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const actions: Record<string, ReturnType<typeof describeActions>> = {};
  for (const app of apps) {
    const granted = grantedActions([app]);
    if (granted.error) throw new TrackerError("unknown_action", granted.error);
    actions[app] = describeActions(granted.actions);
  }
  return json({ actions });
});
