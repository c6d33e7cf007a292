// GET /triggers — the crew's triggers. POST /triggers — a new one; its secret is in this answer
// only (rotate it to see a new one).
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import {
  CreatedTriggerSchema,
  TriggerCreateSchema,
  TriggersResponseSchema,
} from "@/lib/contract/triggers";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";
import { createTrigger, listTriggers } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew, principal }) =>
    json({ triggers: await listTriggers(await getDb(), ownerScope(crew.slug, principal)) }),
  { response: TriggersResponseSchema },
);

export const POST = crewRoute<NoParams, z.infer<typeof TriggerCreateSchema>>(
  async ({ principal, crew, deployment, body }) => {
    assertLocal(deployment, "trigger");
    const created = await createTrigger(await getDb(), crew, principal, body);
    return json(created, { status: 201, headers: { "cache-control": "no-store" } });
  },
  { action: "start", body: TriggerCreateSchema, response: { 201: CreatedTriggerSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
