// POST /api/integrations/actions/{name}/execute — run one action: {"integration": {…params}}.
import type { z } from "zod";
import { ActionRequestSchema, ActionResultSchema } from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { integrationRoute } from "@/lib/http/routes";
import { executeAction } from "@/lib/tracker/actions";
import { assertAllowed } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

// The action's own parameters are validated by the action (its codes are the seed's failures).
export const POST = integrationRoute<{ name: string }, z.infer<typeof ActionRequestSchema>>(
  async ({ caller: access, params, body }) => {
    assertAllowed(access, params.name);
    const result = await executeAction(await getDb(), params.name, body.integration ?? {}, {
      actor: "integration-token",
    });
    return json(result);
  },
  { action: "per-call", body: ActionRequestSchema, response: ActionResultSchema },
);
