// GET, PATCH (edit, pause, resume) and DELETE one schedule of the crew.
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import { SchedulePatchSchema, ScheduleSchema } from "@/lib/contract/schedules";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json(await getSchedule(await getDb(), ownerScope(crew.slug, principal), params.id)),
  { response: ScheduleSchema },
);

export const PATCH = crewRoute<{ id: string }, z.infer<typeof SchedulePatchSchema>>(
  async ({ crew, principal, params, body }) =>
    json(await updateSchedule(await getDb(), crew, principal, params.id, body)),
  { action: "start", body: SchedulePatchSchema, response: ScheduleSchema },
);

export const DELETE = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) => {
    await deleteSchedule(await getDb(), ownerScope(crew.slug, principal), params.id);
    return new Response(null, { status: 204 });
  },
  { action: "start" },
);

export const { POST, PUT } = otherMethods("GET, PATCH, DELETE");
