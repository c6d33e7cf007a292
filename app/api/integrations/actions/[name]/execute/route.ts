// POST /api/integrations/actions/{name}/execute — run one action: {"integration": {…params}}.
import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { integrationRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { executeAction } from "@/lib/tracker/actions";
import { assertAllowed } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

// The action's own parameters are validated by the action (its codes are the seed's failures).
export const POST = integrationRoute(
  integrationsApi.executeAction,
  async ({ caller: access, params, body }) => {
    assertAllowed(access, params.name);
    const result = await executeAction(await getDb(), params.name, body.integration ?? {}, {
      actor: "integration-token",
    });
    return json(result);
  },
);
