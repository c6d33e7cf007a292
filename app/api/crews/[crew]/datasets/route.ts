// GET /datasets — the crew's datasets (rows of inputs with expected outputs).
// POST /datasets — a new dataset, optionally with its first rows (all valid, or none added).
import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createDatasetWithRows } from "@/lib/experiments/add-rows";
import { listDatasets } from "@/lib/experiments/datasets";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.listDatasets, async ({ crew, principal }) =>
  json({ datasets: await listDatasets(await getDb(), ownerScope(crew.slug, principal)) }),
);

export const POST = crewRoute(
  experimentsApi.createDataset,
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "dataset");
    return json(await createDatasetWithRows(await getDb(), crew, principal, body), { status: 201 });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
