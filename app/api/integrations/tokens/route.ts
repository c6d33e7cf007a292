// /api/integrations/tokens — integration tokens for agent runtimes (administrators only).
import { CreatedTokenSchema } from "@/lib/contract/admin";
import {
  IntegrationTokenRequestSchema,
  IntegrationTokensListSchema,
} from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { createIntegrationToken, listIntegrationTokens } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async () => json({ tokens: await listIntegrationTokens(await getDb()) }),
  { action: "admin", response: IntegrationTokensListSchema },
);

export const POST = apiRoute(
  async ({ body }) => json(await createIntegrationToken(await getDb(), body), { status: 201 }),
  {
    action: "admin",
    body: IntegrationTokenRequestSchema,
    bodyLimit: 4 * 1024,
    invalid: 422,
    response: CreatedTokenSchema,
  },
);
