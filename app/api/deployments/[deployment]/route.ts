// /api/deployments/<slug> — change (a new token, URL or name) or remove a remote deployment.

import * as deploymentsApi from "@/lib/api/endpoints/deployments";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { deleteDeployment, updateDeployment } from "@/lib/deployments/store";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const PATCH = apiRoute(deploymentsApi.updateDeployment, async ({ body, params }) =>
  json(await updateDeployment(await getDb(), params.deployment, body)),
);

export const DELETE = apiRoute(deploymentsApi.deleteDeployment, async ({ params }) => {
  await deleteDeployment(await getDb(), params.deployment);
  return new Response(null, { status: 204 });
});
