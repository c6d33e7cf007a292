// /api/deployments — remote deployments (administrators): list, add. Tokens are never sent back.
import * as deploymentsApi from "@/lib/api/endpoints/deployments";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { createDeployment, listDeployments } from "@/lib/deployments/store";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

// Everyone who may read runs sees which deployments exist (names and URLs, no secrets).
export const GET = apiRoute(deploymentsApi.listDeployments, async ({ principal }) =>
  json({ deployments: await listDeployments(await getDb(), principal) }),
);

export const POST = apiRoute(deploymentsApi.addDeployment, async ({ body, principal }) =>
  json(await createDeployment(await getDb(), principal, body), { status: 201 }),
);
