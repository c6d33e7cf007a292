// GET /experiments/{id}/cells — each run of the experiment: its row, repeat, outputs and scores
// with the judges' reasons (?variant= and ?row= narrow it).

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { listCells } from "@/lib/experiments/cells";
import { experimentRow } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  experimentsApi.listExperimentCells,
  async ({ crew, principal, params, query }) => {
    const db = await getDb();
    const row = await experimentRow(db, ownerScope(crew.slug, principal), params.id);
    return json({ cells: await listCells(db, row.id, query) });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
