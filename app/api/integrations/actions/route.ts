// GET /api/integrations/actions?apps=tracker — the actions an agent runtime may call, with
// their parameters as JSON Schema (the shape of CrewAI's platform-tools transport).
import type { z } from "zod";
import { ActionsListSchema, ActionsQuerySchema } from "@/lib/contract/integrations";
import { json } from "@/lib/http/respond";
import { integrationRoute, type NoParams } from "@/lib/http/routes";
import { APP_NAMES, describeActions, grantedActions } from "@/lib/tracker/actions";
import { TrackerError } from "@/lib/tracker/errors";

export const dynamic = "force-dynamic";

export const GET = integrationRoute<NoParams, undefined, z.infer<typeof ActionsQuerySchema>>(
  async ({ query }) => {
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
  },
  { query: ActionsQuerySchema, response: ActionsListSchema },
);
