import crypto from "node:crypto";
import { z } from "zod";
import {
  ownerOf,
  ownerScope,
  type Principal,
  principalName,
  type OwnerScope as Scope,
} from "@/lib/auth/principal";
import type {
  Schedule,
  ScheduleCreate,
  ScheduleFire,
  SchedulePatch,
} from "@/lib/contract/schedules";
import type { CrewDef } from "@/lib/crew/schema";
import { validInputs } from "@/lib/crew/valid-inputs";
import { jsonObject, num, time } from "@/lib/db/columns";
import { crewOwned } from "@/lib/db/crew-owned";
import { returnedRow } from "@/lib/db/returned-row";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { scheduleNow } from "./clock";
import { cronProblem, isTimeZone, nextFireTime, nextFireTimes } from "./cron";

/** Schedules one crew may have: each wakes the scheduler, and a list this long is unreadable. */
export const MAX_SCHEDULES_PER_CREW = 100;

export const ScheduleRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  cron: z.string(),
  timezone: z.string(),
  inputs: jsonObject<Record<string, unknown>>(),
  overlap: z.enum(["skip", "queue", "allow"]),
  catch_up: num,
  paused: z.boolean(),
  next_due_at: time.nullable(),
  owner_user_id: z.string().nullable(),
  created_by: z.string(),
  created_at: time,
  updated_at: time,
});
export type ScheduleRow = z.infer<typeof ScheduleRow>;

const schedules = crewOwned("schedules", ScheduleRow, "schedule");

const FireRow = z.object({
  schedule_id: z.string(),
  due_at: time,
  fired_at: time,
  outcome: z.enum(["started", "queued", "skipped", "missed", "failed"]),
  execution_id: z.string().nullable(),
  detail: z.string().nullable(),
});

const fireView = (f: z.infer<typeof FireRow>): ScheduleFire => ({
  due_at: f.due_at.toISOString(),
  fired_at: f.fired_at.toISOString(),
  outcome: f.outcome,
  execution_id: f.execution_id,
  detail: f.detail,
});

/** A schedule as the API shows it, with its next five fire times from `now`. */
function view(row: ScheduleRow, last: z.infer<typeof FireRow> | undefined, now: Date): Schedule {
  const from =
    row.next_due_at && row.next_due_at < now ? new Date(row.next_due_at.getTime() - 1) : now;
  return {
    id: row.id,
    crew: row.crew,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    inputs: row.inputs,
    overlap: row.overlap,
    catch_up: row.catch_up,
    paused: row.paused,
    next_fire_times: row.paused
      ? []
      : nextFireTimes(row.cron, row.timezone, from, 5).map((d) => d.toISOString()),
    last_fire: last ? fireView(last) : null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The cron expression and zone, or a 422 naming the field that is wrong. */
function checkTiming(cron: string, timezone: string) {
  const cronWrong = cronProblem(cron);
  const problems = [
    ...(cronWrong ? [{ path: "cron", message: cronWrong }] : []),
    ...(isTimeZone(timezone)
      ? []
      : [
          {
            path: "timezone",
            message: `'${timezone}' is not an IANA time zone, e.g. Europe/Berlin or UTC.`,
          },
        ]),
  ];
  if (problems.length)
    throw errors.unprocessable(problems.map((p) => p.message).join(" "), { errors: problems });
}

function checkInputs(crew: CrewDef, inputs: Record<string, unknown>) {
  // Checked as a kickoff's are (missing or invalid: 422), and stored as given.
  validInputs(crew, inputs);
}

const wake = (q: Queryable, id: string) =>
  q.query("SELECT pg_notify('crewdeck_schedules', $1)", [id]);

export async function createSchedule(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  body: ScheduleCreate,
  now = scheduleNow(),
): Promise<Schedule> {
  checkTiming(body.cron, body.timezone);
  checkInputs(crew, body.inputs);
  const id = crypto.randomUUID();
  const next = body.paused ? null : nextFireTime(body.cron, body.timezone, now);
  const row = await db.tx(async (q) => {
    await schedules.makeRoom(q, crew.slug, MAX_SCHEDULES_PER_CREW);
    const { rows } = await q.query(
      `INSERT INTO schedules (id, crew, name, cron, timezone, inputs, overlap, catch_up, paused,
                              next_due_at, owner_user_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11, $12) RETURNING *`,
      [
        id,
        crew.slug,
        body.name,
        body.cron,
        body.timezone,
        JSON.stringify(body.inputs),
        body.overlap,
        body.catch_up,
        body.paused,
        next,
        ownerOf(principal),
        principalName(principal),
      ],
      ScheduleRow,
    );
    await wake(q, id);
    return returnedRow(rows);
  });
  return view(row, undefined, now);
}

/** A change: a new time, zone or expression, or a resume, starts counting due times from now. */
export async function updateSchedule(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  id: string,
  patch: SchedulePatch,
  now = scheduleNow(),
): Promise<Schedule> {
  const row = await db.tx(async (q) => {
    const before = await schedules.one(q, ownerScope(crew.slug, principal), id, true);
    const next = { ...before, ...patch, inputs: patch.inputs ?? before.inputs };
    checkTiming(next.cron, next.timezone);
    if (patch.inputs) checkInputs(crew, patch.inputs);
    const retimed = next.cron !== before.cron || next.timezone !== before.timezone || before.paused;
    const due = next.paused
      ? null
      : retimed || !before.next_due_at
        ? nextFireTime(next.cron, next.timezone, now)
        : before.next_due_at;
    const { rows } = await q.query(
      `UPDATE schedules SET name = $3, cron = $4, timezone = $5, inputs = $6::jsonb, overlap = $7,
              catch_up = $8, paused = $9, next_due_at = $10, updated_at = now()
        WHERE crew = $1 AND id = $2 RETURNING *`,
      [
        crew.slug,
        id,
        next.name,
        next.cron,
        next.timezone,
        JSON.stringify(next.inputs),
        next.overlap,
        next.catch_up,
        next.paused,
        due,
      ],
      ScheduleRow,
    );
    await wake(q, id);
    return returnedRow(rows);
  });
  return view(row, await lastFire(db, id), now);
}

export const deleteSchedule = (db: Db, scope: Scope, id: string) => schedules.remove(db, scope, id);

export async function getSchedule(db: Db, scope: Scope, id: string, now = scheduleNow()) {
  return view(await schedules.one(db, scope, id), await lastFire(db, id), now);
}

export async function listSchedules(db: Db, scope: Scope, now = scheduleNow()) {
  const rows = await schedules.all(db, scope);
  const { rows: lasts } = await db.query(
    // One fire per schedule, read from the primary key backwards: never the whole history.
    `SELECT f.* FROM schedules s CROSS JOIN LATERAL (
       SELECT * FROM schedule_fires WHERE schedule_id = s.id ORDER BY due_at DESC LIMIT 1
     ) f
      WHERE s.crew = $1 AND ($2::uuid IS NULL OR s.owner_user_id = $2::uuid)`,
    [scope.crew, scope.owner],
    FireRow,
  );
  const last = new Map(lasts.map((f) => [f.schedule_id, f]));
  return rows.map((r) => view(r, last.get(r.id), now));
}

/** Its due times, newest first: what started, what was skipped or missed, and why. */
export async function listFires(db: Db, scope: Scope, id: string, limit = 50) {
  await getSchedule(db, scope, id);
  const { rows } = await db.query(
    "SELECT * FROM schedule_fires WHERE schedule_id = $1 ORDER BY due_at DESC LIMIT $2",
    [id, limit],
    FireRow,
  );
  return rows.map(fireView);
}

async function lastFire(q: Queryable, id: string) {
  const { rows } = await q.query(
    "SELECT * FROM schedule_fires WHERE schedule_id = $1 ORDER BY due_at DESC LIMIT 1",
    [id],
    FireRow,
  );
  return rows[0];
}
