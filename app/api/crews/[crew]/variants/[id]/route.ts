// GET /variants/{id} — one saved variant. DELETE — it (experiments keep their pinned copy).
import { idParams, VariantSchema } from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { deleteVariant, getVariant } from "@/lib/experiments/variants";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, params }) => json(await getVariant(await getDb(), crew.slug, params.id)),
  { params: idParams("variant"), response: VariantSchema },
);

export const DELETE = crewRoute<{ id: string }>(
  async ({ crew, params }) => {
    await deleteVariant(await getDb(), crew.slug, params.id);
    return new Response(null, { status: 204 });
  },
  { action: "start", params: idParams("variant") },
);

export const { POST, PUT, PATCH } = otherMethods("GET, DELETE");
