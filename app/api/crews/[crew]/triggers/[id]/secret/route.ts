// POST /triggers/{id}/secret — a new secret, in this answer only; the old one stops working.

import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { rotateSecret } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  automationApi.rotateTriggerSecret,
  async ({ crew, principal, params }) =>
    json(await rotateSecret(await getDb(), ownerScope(crew.slug, principal), params.id), {
      headers: { "cache-control": "no-store" },
    }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
