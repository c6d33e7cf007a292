// POST /api/deployments/<slug>/test — Test connection: GET / and GET /inputs on the deployment,
// and why it failed, in words an administrator can act on.
import { ConnectionCheckSchema } from "@/lib/contract/admin";
import { getDb } from "@/lib/db";
import { getDeploymentOrThrow } from "@/lib/deployments/store";
import { checkConnection } from "@/lib/deployments/test-connection";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ deployment: string }>(
  async ({ params }) =>
    json(await checkConnection(await getDeploymentOrThrow(await getDb(), params.deployment))),
  { action: "admin", response: ConnectionCheckSchema },
);
