// POST /datasets/{id}/rows — add rows: JSON {rows, skip_invalid}, text/csv or JSON Lines. Every
// row is checked against the crew's inputs; one bad row adds none unless skip_invalid is set.
import { ownerScope } from "@/lib/auth/principal";
import { idParams, RowsAddedSchema } from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { addRows, offeredRows } from "@/lib/experiments/add-rows";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const POST = crewRoute<{ id: string }>(
  async ({ crew, principal, params, request }) => {
    const { rows, skip } = await offeredRows(request);
    const db = await getDb();
    const added = await addRows(db, crew, ownerScope(crew.slug, principal), params.id, rows, skip);
    return json(added, { status: 201 });
  },
  { action: "start", params: idParams("dataset"), response: { 201: RowsAddedSchema } },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
