// DELETE /api/integrations/tokens/{id} — revoke an integration token (administrators only).
import * as integrationsApi from "@/lib/api/endpoints/integrations";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { TrackerError } from "@/lib/tracker/errors";
import { revokeIntegrationToken } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute(integrationsApi.revokeIntegrationToken, async ({ params }) => {
  try {
    await revokeIntegrationToken(await getDb(), params.id);
  } catch (err) {
    if (err instanceof TrackerError) throw errors.notFound(err.message);
    throw err;
  }
  return new Response(null, { status: 204 });
});
