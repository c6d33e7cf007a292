// POST /datasets/{id}/rows — add rows: JSON {rows, skip_invalid}, text/csv or JSON Lines. Every
// row is checked against the crew's inputs; one bad row adds none unless skip_invalid is set.

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { addRows, offeredRows } from "@/lib/experiments/add-rows";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  experimentsApi.addDatasetRows,
  async ({ crew, principal, params, request }) => {
    const { rows, skip } = await offeredRows(request);
    const db = await getDb();
    const added = await addRows(db, crew, ownerScope(crew.slug, principal), params.id, rows, skip);
    return json(added, { status: 201 });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
