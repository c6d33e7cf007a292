// POST /datasets/{id}/collect — rows from past runs: their inputs, and as expected outputs what
// reviewers approved (their edit when they edited).
import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { addRows } from "@/lib/experiments/add-rows";
import { rowsFromRuns } from "@/lib/experiments/collect-rows";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  experimentsApi.collectDatasetRows,
  async ({ crew, principal, params, body }) => {
    const db = await getDb();
    const scope = ownerScope(crew.slug, principal);
    const { offered, missing } = await rowsFromRuns(db, crew, scope, body.execution_ids);
    return json(await addRows(db, crew, scope, params.id, offered, false, missing), {
      status: 201,
    });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
