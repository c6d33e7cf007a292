// /api/deployments/<slug> — change (a new token, URL or name) or remove a remote deployment.

import type { z } from "zod";
import { DeploymentViewSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { DeploymentPatchSchema, deleteDeployment, updateDeployment } from "@/lib/deployments/store";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute<{ deployment: string }, z.output<typeof DeploymentPatchSchema>>(
  async ({ body, params }) => json(await updateDeployment(await getDb(), params.deployment, body)),
  {
    action: "admin",
    body: DeploymentPatchSchema,
    bodyLimit: 16 * 1024,
    invalid: 422,
    response: DeploymentViewSchema,
  },
);

export const DELETE = apiRoute<{ deployment: string }>(
  async ({ params }) => {
    await deleteDeployment(await getDb(), params.deployment);
    return new Response(null, { status: 204 });
  },
  { action: "admin" },
);
