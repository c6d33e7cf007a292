// POST /datasets/{id}/collect — rows from past runs: their inputs, and as expected outputs what
// reviewers approved (their edit when they edited).
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import { CollectSchema, idParams, RowsAddedSchema } from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { addRows } from "@/lib/experiments/add-rows";
import { rowsFromRuns } from "@/lib/experiments/collect-rows";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const POST = crewRoute<{ id: string }, z.infer<typeof CollectSchema>>(
  async ({ crew, principal, params, body }) => {
    const db = await getDb();
    const scope = ownerScope(crew.slug, principal);
    const { offered, missing } = await rowsFromRuns(db, crew, scope, body.execution_ids);
    return json(await addRows(db, crew, scope, params.id, offered, false, missing), {
      status: 201,
    });
  },
  {
    action: "start",
    params: idParams("dataset"),
    body: CollectSchema,
    response: { 201: RowsAddedSchema },
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
