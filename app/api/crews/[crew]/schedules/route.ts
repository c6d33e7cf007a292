// GET /schedules — the crew's schedules, each with its next five fire times.
// POST /schedules — a new schedule: the crew runs on a cron expression in a time zone.
import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { json } from "@/lib/http/respond";
import { createSchedule, listSchedules } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.listSchedules, async ({ crew, principal }) =>
  json({ schedules: await listSchedules(await getDb(), ownerScope(crew.slug, principal)) }),
);

export const POST = crewRoute(
  automationApi.createSchedule,
  async ({ principal, crew, deployment, body }) => {
    assertLocal(deployment, "schedule");
    return json(await createSchedule(await getDb(), crew, principal, body), { status: 201 });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
