// GET /experiments/{id}/cells — each run of the experiment: its row, repeat, outputs and scores
// with the judges' reasons (?variant= and ?row= narrow it).
import { ownerScope } from "@/lib/auth/principal";
import { idParams } from "@/lib/contract/datasets";
import { CellsQuerySchema, CellsResponseSchema } from "@/lib/contract/experiment-cells";
import { getDb } from "@/lib/db";
import { listCells } from "@/lib/experiments/cells";
import { experimentRow } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }, undefined, { variant?: string; row?: number }>(
  async ({ crew, principal, params, query }) => {
    const db = await getDb();
    const row = await experimentRow(db, ownerScope(crew.slug, principal), params.id);
    return json({ cells: await listCells(db, row.id, query) });
  },
  { params: idParams("experiment"), query: CellsQuerySchema, response: CellsResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
