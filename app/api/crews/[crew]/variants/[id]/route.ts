// GET /variants/{id} — one saved variant. DELETE — it (experiments keep their pinned copy).
import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { deleteVariant, getVariant } from "@/lib/experiments/variants";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.getVariant, async ({ crew, params }) =>
  json(await getVariant(await getDb(), crew.slug, params.id)),
);

export const DELETE = crewRoute(experimentsApi.deleteVariant, async ({ crew, params }) => {
  await deleteVariant(await getDb(), crew.slug, params.id);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = otherMethods("GET, DELETE");
