// GET, PATCH (edit, pause, resume) and DELETE one schedule of the crew.
import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.getSchedule, async ({ crew, principal, params }) =>
  json(await getSchedule(await getDb(), ownerScope(crew.slug, principal), params.id)),
);

export const PATCH = crewRoute(
  automationApi.updateSchedule,
  async ({ crew, principal, params, body }) =>
    json(await updateSchedule(await getDb(), crew, principal, params.id, body)),
);

export const DELETE = crewRoute(
  automationApi.deleteSchedule,
  async ({ crew, principal, params }) => {
    await deleteSchedule(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
);

export const { POST, PUT } = otherMethods("GET, PATCH, DELETE");
