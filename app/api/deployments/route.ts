// /api/deployments — remote deployments (administrators): list, add. Tokens are never sent back.
import { getDb } from "@/lib/db";
import { createDeployment, DeploymentInputSchema, listDeployments } from "@/lib/deployments/store";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

// Everyone who may read runs sees which deployments exist (names and URLs, no secrets).
export const GET = apiRoute(async ({ principal }) =>
  json({ deployments: await listDeployments(await getDb(), principal) }),
);

export const POST = apiRoute(
  async ({ request, principal }) => {
    const parsed = DeploymentInputSchema.safeParse(
      requireObject(await readJsonBody(request, 16 * 1024)),
    );
    if (!parsed.success)
      throw errors.unprocessable("Invalid deployment.", { errors: zodFieldErrors(parsed.error) });
    return json(await createDeployment(await getDb(), principal, parsed.data), { status: 201 });
  },
  { action: "admin" },
);
