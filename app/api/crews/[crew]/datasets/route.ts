// GET /datasets — the crew's datasets (rows of inputs with expected outputs).
// POST /datasets — a new dataset, optionally with its first rows (all valid, or none added).
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import {
  DatasetCreateSchema,
  DatasetSchema,
  DatasetsResponseSchema,
} from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createDatasetWithRows } from "@/lib/experiments/add-rows";
import { listDatasets } from "@/lib/experiments/datasets";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew, principal }) =>
    json({ datasets: await listDatasets(await getDb(), ownerScope(crew.slug, principal)) }),
  { response: DatasetsResponseSchema },
);

export const POST = crewRoute<NoParams, z.infer<typeof DatasetCreateSchema>>(
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "dataset");
    return json(await createDatasetWithRows(await getDb(), crew, principal, body), { status: 201 });
  },
  { action: "start", body: DatasetCreateSchema, response: { 201: DatasetSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
