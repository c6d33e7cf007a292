// GET, PATCH (mapping, inputs, key, pause) and DELETE one trigger of the crew.
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import { TriggerPatchSchema, TriggerSchema } from "@/lib/contract/triggers";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { deleteTrigger, getTrigger, updateTrigger } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json(await getTrigger(await getDb(), ownerScope(crew.slug, principal), params.id)),
  { response: TriggerSchema },
);

export const PATCH = crewRoute<{ id: string }, z.infer<typeof TriggerPatchSchema>>(
  async ({ crew, principal, params, body }) =>
    json(await updateTrigger(await getDb(), crew, principal, params.id, body)),
  { action: "start", body: TriggerPatchSchema, response: TriggerSchema },
);

export const DELETE = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) => {
    await deleteTrigger(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
  { action: "start" },
);

export const { POST, PUT } = otherMethods("GET, PATCH, DELETE");
