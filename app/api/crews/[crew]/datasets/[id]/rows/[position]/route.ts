// DELETE /datasets/{id}/rows/{position} — one row of a dataset.

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { deleteRow } from "@/lib/experiments/datasets";

export const dynamic = "force-dynamic";

export const DELETE = crewRoute(
  experimentsApi.deleteDatasetRow,
  async ({ crew, principal, params }) => {
    await deleteRow(await getDb(), ownerScope(crew.slug, principal), params.id, params.position);
    return new Response(null, { status: 204 });
  },
);

export const { GET, POST, PUT, PATCH } = otherMethods("DELETE");
