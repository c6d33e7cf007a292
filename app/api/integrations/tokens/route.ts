// /api/integrations/tokens — integration tokens for agent runtimes (administrators only).

import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { createIntegrationToken, listIntegrationTokens } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export const GET = apiRoute(integrationsApi.listIntegrationTokens, async () =>
  json({ tokens: await listIntegrationTokens(await getDb()) }),
);

export const POST = apiRoute(integrationsApi.createIntegrationToken, async ({ body }) =>
  json(await createIntegrationToken(await getDb(), body), { status: 201 }),
);
