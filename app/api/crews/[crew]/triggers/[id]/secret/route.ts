// POST /triggers/{id}/secret — a new secret, in this answer only; the old one stops working.

import { ownerScope } from "@/lib/auth/principal";
import { CreatedTriggerSchema } from "@/lib/contract/triggers";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { rotateSecret } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const POST = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json(await rotateSecret(await getDb(), ownerScope(crew.slug, principal), params.id), {
      headers: { "cache-control": "no-store" },
    }),
  { action: "start", response: CreatedTriggerSchema },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
