import crypto from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ScheduleCreate } from "@/lib/contract/schedules";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG } from "../support/principals";

// What a due time does when the run of an earlier one is still going (a schedule's overlap), and
// when it cannot start a run at all: each outcome recorded with its reason, on a real (embedded)
// database with time passed in. No worker runs here, so a run started stays queued.
const file = embeddedDbForFile("schedule-overlap", {
  CREWS_DIR: path.resolve("tests/fixtures/crews"),
});
const fire = () => import("@/lib/schedules/fire");
const store = () => import("@/lib/schedules/store");
async function crewNamed(slug: string) {
  const { findCrew } = await import("@/lib/crew/registry");
  const crew = findCrew(slug);
  if (!crew) throw new Error(`fixture crew ${slug} missing`);
  return crew;
}
const at = (iso: string) => new Date(iso);
const hourly = (overlap: ScheduleCreate["overlap"], catch_up = 1): ScheduleCreate => ({
  name: `Hourly, ${overlap}`,
  cron: "0 * * * *",
  timezone: "UTC",
  inputs: {},
  overlap,
  catch_up,
  paused: false,
});
const scope = { crew: "no-inputs", owner: null };

/** A schedule made at 00:30 and fired at each of `times`; its fires, oldest first. */
async function fired(body: ScheduleCreate, times: string[]) {
  const { createSchedule, listFires } = await store();
  const { fireDueSchedules } = await fire();
  await file.db.query("DELETE FROM schedules");
  const s = await createSchedule(
    file.db,
    await crewNamed("no-inputs"),
    ORG,
    body,
    at("2026-01-01T00:30:00Z"),
  );
  const started: number[] = [];
  const logged: string[] = [];
  for (const t of times)
    started.push(await fireDueSchedules(file.db, at(t), (line) => logged.push(line)));
  const fires = (await listFires(file.db, scope, s.id)).reverse();
  const { rows } = await file.db.query(
    "SELECT id::text AS id, concurrency_key FROM executions WHERE schedule_id = $1 ORDER BY created_at",
    [s.id],
  );
  return { s, started, fires, runs: rows, logged };
}

describe("a due time while an earlier run is going", () => {
  it("skip: records it skipped, naming the run, and starts none", async () => {
    const { started, fires, runs } = await fired(hourly("skip"), [
      "2026-01-01T01:00:00Z",
      "2026-01-01T02:00:00Z",
    ]);
    expect(started).toEqual([1, 0]);
    expect(runs).toHaveLength(1);
    expect(fires.map((f) => [f.outcome, f.detail])).toEqual([
      ["started", null],
      ["skipped", `Run ${runs[0]?.id} from an earlier due time was still going (overlap: skip).`],
    ]);
  });

  it("queue: starts it behind the earlier one, in the schedule's own queue", async () => {
    const { s, started, fires, runs } = await fired(hourly("queue"), [
      "2026-01-01T01:00:00Z",
      "2026-01-01T02:00:00Z",
    ]);
    expect(started).toEqual([1, 1]);
    expect(runs.map((r) => r.concurrency_key)).toEqual([`schedule:${s.id}`, `schedule:${s.id}`]);
    expect(fires.map((f) => [f.outcome, f.detail, f.execution_id])).toEqual([
      ["started", null, runs[0]?.id],
      ["queued", `Waits for run ${runs[0]?.id} to end (overlap: queue).`, runs[1]?.id],
    ]);
  });

  it("allow: starts it beside the earlier one", async () => {
    const { started, fires, runs, logged } = await fired(hourly("allow"), [
      "2026-01-01T01:00:00Z",
      "2026-01-01T02:00:00Z",
    ]);
    expect(started).toEqual([1, 1]);
    expect(runs.map((r) => r.concurrency_key)).toEqual([null, null]);
    expect(logged).toEqual([]); // only a failed due time is logged
    expect(fires.map((f) => f.outcome)).toEqual(["started", "started"]);
  });
});

describe("due times missed while no worker ran", () => {
  it("records the one missed by name, and runs the latest `catch_up`", async () => {
    const one = await fired(hourly("allow"), ["2026-01-01T02:10:00Z"]);
    expect(one.started).toEqual([1]);
    expect(one.fires.map((f) => [f.due_at.slice(11, 16), f.outcome])).toEqual([
      ["01:00", "missed"],
      ["02:00", "started"],
    ]);
    expect(one.fires[0]?.detail).toBe(
      "1 due time from 2026-01-01T01:00:00.000Z to 2026-01-01T01:00:00.000Z passed while no worker was running; catch_up is 1, so only the latest one runs.",
    );
    const two = await fired(hourly("allow", 2), ["2026-01-01T04:10:00Z"]);
    expect(two.started).toEqual([2]);
    expect(two.fires[0]?.detail).toBe(
      "2 due times from 2026-01-01T01:00:00.000Z to 2026-01-01T02:00:00.000Z passed while no worker was running; catch_up is 2, so only the latest 2 run.",
    );
    // Nothing missed: no such record.
    const none = await fired(hourly("allow"), ["2026-01-01T01:10:00Z"]);
    expect(none.fires.map((f) => f.outcome)).toEqual(["started"]);
  });
});

describe("a due time that cannot start a run", () => {
  it("is recorded failed, with why, and logged; the schedule moves on", async () => {
    const { fireDueSchedules } = await fire();
    const { listFires } = await store();
    await file.db.query("DELETE FROM schedules");
    // A crew no longer loaded, and one whose inputs the schedule no longer satisfies.
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [id, crew] of [
      [ids[0], "gone"],
      [ids[1], "brief"],
    ])
      await file.db.query(
        `INSERT INTO schedules (id, crew, name, cron, timezone, inputs, overlap, catch_up, paused,
                                next_due_at, created_by)
         VALUES ($1, $2, $2, '0 * * * *', 'UTC', '{}', 'allow', 1, false,
                 '2026-01-01T01:00:00Z', 'test')`,
        [id, crew],
      );
    const logged: string[] = [];
    expect(await fireDueSchedules(file.db, at("2026-01-01T01:30:00Z"), (l) => logged.push(l))).toBe(
      0,
    );
    const gone = await listFires(file.db, { crew: "gone", owner: null }, String(ids[0]));
    expect(gone.map((f) => [f.outcome, f.detail])).toEqual([
      ["failed", "The crew 'gone' is not loaded (removed, or its files are broken)."],
    ]);
    const brief = await listFires(file.db, { crew: "brief", owner: null }, String(ids[1]));
    expect(brief.map((f) => f.outcome)).toEqual(["failed"]);
    expect(logged.sort()).toEqual([
      `[scheduler] brief at 2026-01-01T01:00:00.000Z: ${brief[0]?.detail}`,
      "[scheduler] gone at 2026-01-01T01:00:00.000Z: The crew 'gone' is not loaded (removed, or its files are broken).",
    ]);
    // Both moved past now: nothing is due again.
    expect(await fireDueSchedules(file.db, at("2026-01-01T01:40:00Z"), () => {})).toBe(0);
    const { rows } = await file.db.query("SELECT count(*)::int AS n FROM schedule_fires");
    expect(Number(rows[0]?.n)).toBe(2);
  });
});
