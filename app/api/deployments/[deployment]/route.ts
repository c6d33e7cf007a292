// /api/deployments/<slug> — change (a new token, URL or name) or remove a remote deployment.
import { getDb } from "@/lib/db";
import { DeploymentPatchSchema, deleteDeployment, updateDeployment } from "@/lib/deployments/store";
import { errors, zodFieldErrors } from "@/lib/errors";
import { readJsonBody, requireObject } from "@/lib/http/read-json";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ deployment: string }>(
  async ({ request, params }) => {
    const parsed = DeploymentPatchSchema.safeParse(
      requireObject(await readJsonBody(request, 16 * 1024)),
    );
    if (!parsed.success)
      throw errors.unprocessable("Invalid deployment.", { errors: zodFieldErrors(parsed.error) });
    return json(await updateDeployment(await getDb(), params.deployment, parsed.data));
  },
  { action: "admin" },
);

export const DELETE = apiRoute<{ deployment: string }>(
  async ({ params }) => {
    await deleteDeployment(await getDb(), params.deployment);
    return new Response(null, { status: 204 });
  },
  { action: "admin" },
);
