// GET, PATCH (mapping, inputs, key, pause) and DELETE one trigger of the crew.
import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { deleteTrigger, getTrigger, updateTrigger } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.getTrigger, async ({ crew, principal, params }) =>
  json(await getTrigger(await getDb(), ownerScope(crew.slug, principal), params.id)),
);

export const PATCH = crewRoute(
  automationApi.updateTrigger,
  async ({ crew, principal, params, body }) =>
    json(await updateTrigger(await getDb(), crew, principal, params.id, body)),
);

export const DELETE = crewRoute(
  automationApi.deleteTrigger,
  async ({ crew, principal, params }) => {
    await deleteTrigger(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
);

export const { POST, PUT } = otherMethods("GET, PATCH, DELETE");
