// DELETE /api/views/{id} — delete one of the caller's saved views (anyone else's: 404).

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { viewOwnerOf } from "@/lib/views/owner";
import { deleteView } from "@/lib/views/store";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute(runsApi.deleteView, async ({ principal, params }) => {
  await deleteView({ db: await getDb(), userId: viewOwnerOf(principal), id: params.id });
  return new Response(null, { status: 204 });
});
