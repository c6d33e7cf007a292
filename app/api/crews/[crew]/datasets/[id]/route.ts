// GET /datasets/{id} — a dataset with its rows. DELETE — the dataset and its rows.

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { datasetRows, deleteDataset, getDataset } from "@/lib/experiments/datasets";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.getDataset, async ({ crew, principal, params }) => {
  const db = await getDb();
  const dataset = await getDataset(db, ownerScope(crew.slug, principal), params.id);
  return json({ ...dataset, rows: await datasetRows(db, dataset.id) });
});

export const DELETE = crewRoute(
  experimentsApi.deleteDataset,
  async ({ crew, principal, params }) => {
    await deleteDataset(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
);

export const { POST, PUT, PATCH } = otherMethods("GET, DELETE");
