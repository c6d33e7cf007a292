// POST /api/deployments/<slug>/test — Test connection: GET / and GET /inputs on the deployment,
// and why it failed, in words an administrator can act on.
import * as deploymentsApi from "@/lib/api/endpoints/deployments";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { getDeploymentOrThrow } from "@/lib/deployments/store";
import { checkConnection } from "@/lib/deployments/test-connection";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = apiRoute(deploymentsApi.testDeployment, async ({ params }) =>
  json(await checkConnection(await getDeploymentOrThrow(await getDb(), params.deployment))),
);
