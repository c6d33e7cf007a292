// GET /datasets/{id} — a dataset with its rows. DELETE — the dataset and its rows.
import { ownerScope } from "@/lib/auth/principal";
import { DatasetDetailSchema, idParams } from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { datasetRows, deleteDataset, getDataset } from "@/lib/experiments/datasets";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) => {
    const db = await getDb();
    const dataset = await getDataset(db, ownerScope(crew.slug, principal), params.id);
    return json({ ...dataset, rows: await datasetRows(db, dataset.id) });
  },
  { params: idParams("dataset"), response: DatasetDetailSchema },
);

export const DELETE = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) => {
    await deleteDataset(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
  { action: "start", params: idParams("dataset") },
);

export const { POST, PUT, PATCH } = otherMethods("GET, DELETE");
