// GET /schedules — the crew's schedules, each with its next five fire times.
// POST /schedules — a new schedule: the crew runs on a cron expression in a time zone.
import type { z } from "zod";
import { ownerScope } from "@/lib/auth/principal";
import {
  ScheduleCreateSchema,
  ScheduleSchema,
  SchedulesResponseSchema,
} from "@/lib/contract/schedules";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";
import { createSchedule, listSchedules } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew, principal }) =>
    json({ schedules: await listSchedules(await getDb(), ownerScope(crew.slug, principal)) }),
  { response: SchedulesResponseSchema },
);

export const POST = crewRoute<NoParams, z.infer<typeof ScheduleCreateSchema>>(
  async ({ principal, crew, deployment, body }) => {
    assertLocal(deployment, "schedule");
    return json(await createSchedule(await getDb(), crew, principal, body), { status: 201 });
  },
  { action: "start", body: ScheduleCreateSchema, response: { 201: ScheduleSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
