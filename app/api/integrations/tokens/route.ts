// /api/integrations/tokens — integration tokens for agent runtimes (administrators only).
import { z } from "zod";
import { getDb } from "@/lib/db";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { createIntegrationToken, listIntegrationTokens } from "@/lib/tracker/integration-token";

export const dynamic = "force-dynamic";

const Create = z.object({
  access: z.enum(["read", "write"]).default("write"),
  label: z.string().trim().max(200).optional(),
});

export const GET = apiRoute(
  async () => json({ tokens: await listIntegrationTokens(await getDb()) }),
  { action: "admin" },
);

export const POST = apiRoute(
  async ({ request }) => {
    const parsed = Create.safeParse(requireObject(await readJsonBody(request, 4 * 1024)));
    if (!parsed.success)
      throw errors.unprocessable("Invalid integration token request.", {
        errors: zodFieldErrors(parsed.error),
      });
    return json(await createIntegrationToken(await getDb(), parsed.data), { status: 201 });
  },
  { action: "admin" },
);
