import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import { dbMode, FIXTURE_CREWS, type Proc, TEST_CREW_TOKEN, tempDir } from "../support/harness";
import { twoWorkers } from "../support/topology";

// Schedules fire on the scheduler's clock, which here is a file the test writes: time moves across
// due times and daylight-saving changes at once, no waiting. PostgreSQL: two worker processes
// share the database, and one is killed between due times. Embedded: the one process (web and
// worker) is killed and started again.
const mode = dbMode();
const procs: Proc[] = [];
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill("SIGKILL")));
});

const dir = tempDir("schedules");
const clockFile = path.join(dir, "clock");
// Written whole and renamed into place: a scheduler never reads a half-written clock.
const setClock = (iso: string) => {
  fs.writeFileSync(`${clockFile}.next`, iso);
  fs.renameSync(`${clockFile}.next`, clockFile);
};
setClock("2026-03-27T12:00:00Z");

async function topology() {
  const env = {
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_LEASE_MS: "3000",
    WORKER_POLL_MS: "100",
    SCHEDULER_POLL_MS: "100",
    SCHEDULER_CLOCK_FILE: clockFile,
    DATA_DIR: path.join(dir, "data"),
  };
  return twoWorkers(mode, procs, env);
}

const t = await topology();
const api = (method: string, p: string, body?: unknown) =>
  call(t.url, method, p, { token: TEST_CREW_TOKEN, body });
const done = (s: Json) => ["completed", "error", "cancelled"].includes(s.status);
const paused = (s: Json) => s.status === "pending_human_input";

async function create(crew: string, body: Record<string, unknown>) {
  const r = await api("POST", `/api/crews/${crew}/schedules`, body);
  expect(r.status, r.text).toBe(201);
  return r.json as Json;
}
const firesOf = async (crew: string, id: string) =>
  (await api("GET", `/api/crews/${crew}/schedules/${id}/fires`)).json.fires as Json[];
/** Moves the clock and waits until the schedule has dealt with `count` due times in all. */
async function advance(crew: string, id: string, iso: string, count: number) {
  setClock(iso);
  return until(
    `${count} fires of ${id} by ${iso}`,
    () => firesOf(crew, id),
    (f) => f.length >= count,
  );
}

describe(`schedules (${mode})`, () => {
  it("fires once per due time across spring forward, a SIGKILL, and fall back (Europe/Berlin)", async () => {
    const s = await create("no-inputs", {
      name: "Nightly",
      cron: "30 2 * * *",
      timezone: "Europe/Berlin",
      overlap: "allow",
    });
    // 02:30 does not exist on 29 March (clocks jump 02:00 → 03:00): croner runs it at 03:00.
    expect(s.next_fire_times).toEqual([
      "2026-03-28T01:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-30T00:30:00.000Z",
      "2026-03-31T00:30:00.000Z",
      "2026-04-01T00:30:00.000Z",
    ]);
    let fires = await advance("no-inputs", s.id, "2026-03-28T01:30:05Z", 1);
    expect(fires.map((f) => [f.due_at, f.outcome])).toEqual([
      ["2026-03-28T01:30:00.000Z", "started"],
    ]);
    await t.crash(); // between due times
    fires = await advance("no-inputs", s.id, "2026-03-29T01:00:01Z", 2);
    expect(fires[0]).toMatchObject({ due_at: "2026-03-29T01:00:00.000Z", outcome: "started" });
    const run = crewClient(t.url, "no-inputs", TEST_CREW_TOKEN);
    const status = await run.waitFor(fires[0].execution_id, done);
    expect(status.status).toBe("completed");
    expect(status.started_by).toEqual({ via: "schedule", name: "Nightly", id: s.id });

    // Fall back (25 October: 02:00–03:00 happens twice): a fixed-time job runs once, at the first.
    const late = await api("PATCH", `/api/crews/no-inputs/schedules/${s.id}`, { paused: true });
    expect(late.json.next_fire_times).toEqual([]);
    setClock("2026-10-24T12:00:00Z");
    const resumed = await api("PATCH", `/api/crews/no-inputs/schedules/${s.id}`, {
      paused: false,
    });
    expect(resumed.json.next_fire_times.slice(0, 3)).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
      "2026-10-27T01:30:00.000Z",
    ]);
    await advance("no-inputs", s.id, "2026-10-25T00:30:01Z", 3);
    // The second 02:30 (01:30 UTC) passes; the next fire is the next day's, and nothing between.
    fires = await advance("no-inputs", s.id, "2026-10-26T01:30:02Z", 4);
    expect(fires.map((f) => f.due_at)).toEqual([
      "2026-10-26T01:30:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-03-29T01:00:00.000Z",
      "2026-03-28T01:30:00.000Z",
    ]);
    expect(fires.every((f) => f.outcome === "started")).toBe(true);
    // Each fire started its own run, and no run was started twice for one due time.
    const runs = await api("GET", "/api/runs?crew=no-inputs&per_page=100");
    const scheduled = (runs.json.runs as Json[]).filter((r) => r.started_by?.via === "schedule");
    expect(scheduled.map((r) => r.id).sort()).toEqual(fires.map((f) => f.execution_id).sort());
    await api("DELETE", `/api/crews/no-inputs/schedules/${s.id}`);
  });

  it("an interval job runs at both passes through the repeated hour", async () => {
    setClock("2026-10-24T23:59:00Z"); // 01:59 in Berlin, summer time
    const s = await create("no-inputs", {
      name: "Half-hourly",
      cron: "*/30 * * * *",
      timezone: "Europe/Berlin",
      overlap: "allow",
      catch_up: 10,
    });
    // 02:00 and 02:30 CEST, then 02:00 and 02:30 CET: four due times in two real hours.
    const fires = await advance("no-inputs", s.id, "2026-10-25T01:45:00Z", 4);
    expect(fires.map((f) => f.due_at).reverse()).toEqual([
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2026-10-25T01:30:00.000Z",
    ]);
    await api("DELETE", `/api/crews/no-inputs/schedules/${s.id}`);
  });

  it("overlap skip / queue / allow while the last run waits for review; catch-up after downtime", async () => {
    setClock("2026-11-02T08:55:00Z");
    const review = crewClient(t.url, "review", TEST_CREW_TOKEN);
    const make = (overlap: string) =>
      create("review", {
        name: `Every ten minutes (${overlap})`,
        cron: "*/10 * * * *",
        timezone: "UTC",
        inputs: { subject: overlap },
        overlap,
        catch_up: 2,
      });
    const [skip, queue, allow] = [await make("skip"), await make("queue"), await make("allow")];
    setClock("2026-11-02T09:00:01Z");
    const first = new Map<string, string>();
    for (const s of [skip, queue, allow]) {
      const [f] = await until(
        "first fire",
        () => firesOf("review", s.id),
        (x) => x.length === 1,
      );
      first.set(s.overlap, f.execution_id);
      await review.waitFor(f.execution_id, paused);
    }
    // Down for 35 minutes: three due times passed (09:10, 09:20, 09:30); catch_up 2 runs the
    // latest two and records the first as missed.
    setClock("2026-11-02T09:35:00Z");
    const caughtUp = async (s: Json) =>
      until(
        "catch-up",
        () => firesOf("review", s.id),
        (x) => x.length === 4,
      );
    const [skipped, queued, allowed] = [
      await caughtUp(skip),
      await caughtUp(queue),
      await caughtUp(allow),
    ];
    const shape = (fires: Json[]) => fires.map((f) => [f.due_at.slice(11, 16), f.outcome]);
    expect(shape(skipped)).toEqual([
      ["09:30", "skipped"],
      ["09:20", "skipped"],
      ["09:10", "missed"],
      ["09:00", "started"],
    ]);
    expect(skipped[0].detail).toContain(first.get("skip"));
    expect(skipped[2].detail).toMatch(/1 due time .* catch_up is 2/);
    expect(shape(queued)).toEqual([
      ["09:30", "queued"],
      ["09:20", "queued"],
      ["09:10", "missed"],
      ["09:00", "started"],
    ]);
    expect(shape(allowed)).toEqual([
      ["09:30", "started"],
      ["09:20", "started"],
      ["09:10", "missed"],
      ["09:00", "started"],
    ]);
    // allow: all three wait for review side by side; queue: the later two wait their turn.
    for (const f of allowed.slice(0, 2)) await review.waitFor(f.execution_id, paused);
    for (const f of queued.slice(0, 2))
      expect((await review.status(f.execution_id)).json.status).toBe("queued");
    const approve = (id: string, task_id: string) =>
      review.resume({ execution_id: id, task_id, human_feedback: "ok", is_approve: true });
    const q0 = first.get("queue") as string;
    await approve(q0, "draft");
    await review.waitFor(q0, (s) => s.pending_human_input?.task_id === "polish");
    await approve(q0, "polish");
    await review.waitFor(q0, done);
    // The next one due (09:20) goes first; the 09:30 one still waits behind it.
    await review.waitFor(queued[1].execution_id, paused);
    expect((await review.status(queued[0].execution_id)).json.status).toBe("queued");
    for (const s of [skip, queue, allow])
      await api("DELETE", `/api/crews/review/schedules/${s.id}`);
  });

  it("refuses a bad expression, zone or inputs with the field; 404 for another crew's schedule", async () => {
    const bad = await api("POST", "/api/crews/review/schedules", {
      name: "x",
      cron: "every day",
      timezone: "Mars/Olympus",
    });
    expectProblem(bad, 422);
    expect(bad.json.errors.map((e: Json) => e.path)).toEqual(["cron", "timezone"]);
    const missing = await api("POST", "/api/crews/review/schedules", {
      name: "x",
      cron: "0 9 * * *",
      timezone: "UTC",
    });
    expectProblem(missing, 422);
    expect(missing.json.missing_inputs).toEqual(["subject"]);
    const malformed = await api("POST", "/api/crews/review/schedules", { name: 3 });
    expectProblem(malformed, 400);
    const s = await create("no-inputs", { name: "Mine", cron: "0 9 * * *", timezone: "UTC" });
    expectProblem(await api("GET", `/api/crews/review/schedules/${s.id}`), 404);
    expectProblem(await api("DELETE", `/api/crews/review/schedules/${s.id}`), 404);
    const anonymous = await call(t.url, "POST", "/api/crews/no-inputs/schedules", {
      body: { name: "x", cron: "0 9 * * *", timezone: "UTC" },
    });
    expect(anonymous.status).toBe(401);
  });
});
