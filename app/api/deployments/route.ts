// /api/deployments — remote deployments (administrators): list, add. Tokens are never sent back.
import { DeploymentListSchema, DeploymentViewSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { createDeployment, DeploymentInputSchema, listDeployments } from "@/lib/deployments/store";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

// Everyone who may read runs sees which deployments exist (names and URLs, no secrets).
export const GET = apiRoute(
  async ({ principal }) => json({ deployments: await listDeployments(await getDb(), principal) }),
  { response: DeploymentListSchema },
);

export const POST = apiRoute(
  async ({ body, principal }) =>
    json(await createDeployment(await getDb(), principal, body), { status: 201 }),
  {
    action: "admin",
    body: DeploymentInputSchema,
    bodyLimit: 16 * 1024,
    invalid: 422,
    response: DeploymentViewSchema,
  },
);
