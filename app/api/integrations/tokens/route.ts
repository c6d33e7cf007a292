// /api/integrations/tokens — integration tokens for agent runtimes (administrators only).
import { IntegrationTokenRequestSchema } from "@/lib/contract/integrations";
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { createIntegrationToken, listIntegrationTokens } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

export const GET = apiRoute(
  async () => json({ tokens: await listIntegrationTokens(await getDb()) }),
  { action: "admin" },
);

export const POST = apiRoute(
  async ({ request }) => {
    const parsed = IntegrationTokenRequestSchema.safeParse(
      requireObject(await readJsonBody(request, 4 * 1024)),
    );
    if (!parsed.success)
      throw errors.unprocessable("Invalid integration token request.", {
        errors: zodFieldErrors(parsed.error),
      });
    return json(await createIntegrationToken(await getDb(), parsed.data), { status: 201 });
  },
  { action: "admin" },
);
