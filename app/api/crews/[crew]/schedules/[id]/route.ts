// GET, PATCH (edit, pause, resume) and DELETE one schedule of the crew.
import type { z } from "zod";
import { SchedulePatchSchema, ScheduleSchema } from "@/lib/contract/schedules";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, params }) => json(await getSchedule(await getDb(), crew.slug, params.id)),
  { response: ScheduleSchema },
);

export const PATCH = crewRoute<{ id: string }, z.infer<typeof SchedulePatchSchema>>(
  async ({ crew, params, body }) =>
    json(await updateSchedule(await getDb(), crew, params.id, body)),
  { action: "start", body: SchedulePatchSchema, response: ScheduleSchema },
);

export const DELETE = crewRoute<{ id: string }>(
  async ({ crew, params }) => {
    await deleteSchedule(await getDb(), crew.slug, params.id);
    return new Response(null, { status: 204 });
  },
  { action: "start" },
);

export const { POST, PUT } = otherMethods("GET, PATCH, DELETE");
