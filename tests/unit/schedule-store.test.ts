import crypto from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { ScheduleCreate } from "@/lib/contract/schedules";
import { embeddedDbForFile } from "../support/embedded-db";
import { ORG, userToken } from "../support/principals";

// Schedules as the API keeps them, on a real (embedded) database, with time passed in: who sees
// which, what a change does to the next due time, and what is refused.
const file = embeddedDbForFile("schedule-store", {
  CREWS_DIR: path.resolve("tests/fixtures/crews"),
});
const store = () => import("@/lib/schedules/store");
async function noInputs() {
  const { findCrew } = await import("@/lib/crew/registry");
  const crew = findCrew("no-inputs");
  if (!crew) throw new Error("fixture crew no-inputs missing");
  return crew;
}
const at = (iso: string) => new Date(iso);
const hourly: ScheduleCreate = {
  name: "Hourly",
  cron: "0 * * * *",
  timezone: "UTC",
  inputs: {},
  overlap: "allow",
  catch_up: 1,
  paused: false,
};
const scope = (owner: string | null) => ({ crew: "no-inputs", owner });
async function person(): Promise<{ id: string; token: Principal }> {
  const id = crypto.randomUUID();
  await file.db.query("INSERT INTO users (id, email) VALUES ($1, $2)", [id, `${id}@example.com`]);
  return { id, token: userToken(id, `${id}@example.com`) };
}

describe("a schedule's timing", () => {
  it("shows its next five fire times from now, none while paused", async () => {
    const { createSchedule } = await store();
    const crew = await noInputs();
    const s = await createSchedule(file.db, crew, ORG, hourly, at("2026-01-01T00:30:00Z"));
    expect(s.next_fire_times).toEqual(
      ["01", "02", "03", "04", "05"].map((h) => `2026-01-01T${h}:00:00.000Z`),
    );
    expect(s).toMatchObject({
      name: "Hourly",
      last_fire: null,
      created_by: "org-token:CREW_TOKEN",
    });
    const paused = await createSchedule(file.db, crew, ORG, { ...hourly, paused: true });
    expect(paused.next_fire_times).toEqual([]);
  });

  it("refuses a wrong expression and a wrong zone, naming each", async () => {
    const { createSchedule } = await store();
    const crew = await noInputs();
    const create = (cron: string, timezone: string) =>
      createSchedule(file.db, crew, ORG, { ...hourly, cron, timezone });
    await expect(create("0 * * *", "Mars/Base")).rejects.toMatchObject({
      status: 422,
      details: {
        errors: [
          { path: "cron", message: expect.stringMatching(/five fields/) },
          { path: "timezone", message: expect.stringMatching(/'Mars\/Base' is not an IANA/) },
        ],
      },
    });
    await expect(create("0 * * * *", "Mars/Base")).rejects.toMatchObject({
      details: { errors: [{ path: "timezone" }] },
    });
    await expect(create("0 * * *", "UTC")).rejects.toMatchObject({
      details: { errors: [{ path: "cron" }] },
    });
  });

  it("keeps a due time owed through a change of name; a new time, zone or a resume counts from now", async () => {
    const { createSchedule, updateSchedule, getSchedule } = await store();
    const crew = await noInputs();
    const s = await createSchedule(file.db, crew, ORG, hourly, at("2026-01-01T00:30:00Z"));
    const later = at("2026-01-01T02:10:00Z"); // 01:00 and 02:00 are owed
    const renamed = await updateSchedule(file.db, crew, ORG, s.id, { name: "Renamed" }, later);
    expect(renamed.name).toBe("Renamed");
    expect(renamed.next_fire_times[0]).toBe("2026-01-01T01:00:00.000Z");
    expect((await getSchedule(file.db, scope(null), s.id, later)).next_fire_times[0]).toBe(
      "2026-01-01T01:00:00.000Z",
    );
    const rezoned = await updateSchedule(
      file.db,
      crew,
      ORG,
      s.id,
      { timezone: "Asia/Kolkata" }, // UTC+5:30: its hours fall on the half hour
      later,
    );
    expect(rezoned.next_fire_times[0]).toBe("2026-01-01T02:30:00.000Z");
    const recron = await updateSchedule(file.db, crew, ORG, s.id, { cron: "15 * * * *" }, later);
    expect(recron.next_fire_times[0]).toBe("2026-01-01T02:45:00.000Z"); // still in Kolkata

    const paused = await updateSchedule(file.db, crew, ORG, s.id, { paused: true }, later);
    expect(paused.next_fire_times).toEqual([]);
    const resumed = await updateSchedule(
      file.db,
      crew,
      ORG,
      s.id,
      { paused: false },
      at("2026-01-01T05:20:00Z"),
    );
    expect(resumed.next_fire_times[0]).toBe("2026-01-01T05:45:00.000Z");
    await expect(
      updateSchedule(file.db, crew, ORG, s.id, { cron: "nope" }, later),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe("whose schedules", () => {
  it("a token sees and changes only its owner's; a missing or non-id schedule is not found", async () => {
    const { createSchedule, getSchedule, listSchedules, deleteSchedule, updateSchedule } =
      await store();
    const crew = await noInputs();
    const [ada, bob] = [await person(), await person()];
    const mine = await createSchedule(file.db, crew, ada.token, hourly);
    const theirs = await createSchedule(file.db, crew, bob.token, hourly);
    expect(mine.created_by).toBe(`${ada.id}@example.com`);
    expect((await listSchedules(file.db, scope(ada.id))).map((s) => s.id)).toEqual([mine.id]);
    const all = (await listSchedules(file.db, scope(null))).map((s) => s.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect((await getSchedule(file.db, scope(ada.id), mine.id)).id).toBe(mine.id);

    const notFound = { status: 404, message: expect.stringMatching(/No schedule/) };
    for (const id of [theirs.id, crypto.randomUUID(), "not-an-id"]) {
      await expect(getSchedule(file.db, scope(ada.id), id)).rejects.toMatchObject(notFound);
      await expect(deleteSchedule(file.db, scope(ada.id), id)).rejects.toMatchObject(notFound);
      await expect(
        updateSchedule(file.db, crew, ada.token, id, { name: "x" }),
      ).rejects.toMatchObject(notFound);
    }
    await deleteSchedule(file.db, scope(ada.id), mine.id);
    await expect(getSchedule(file.db, scope(null), mine.id)).rejects.toMatchObject(notFound);
    await expect(deleteSchedule(file.db, scope(null), mine.id)).rejects.toMatchObject(notFound);
  });

  it("lists each schedule with its latest fire, and its fires newest first", async () => {
    const { createSchedule, listSchedules, listFires } = await store();
    const crew = await noInputs();
    const { id: owner, token } = await person();
    const s = await createSchedule(file.db, crew, token, hourly);
    const idle = await createSchedule(file.db, crew, token, { ...hourly, name: "Idle" });
    for (const [due, outcome] of [
      ["2026-01-01T01:00:00Z", "started"],
      ["2026-01-01T03:00:00Z", "skipped"],
      ["2026-01-01T02:00:00Z", "missed"],
    ])
      await file.db.query(
        `INSERT INTO schedule_fires (schedule_id, due_at, fired_at, outcome, detail)
         VALUES ($1, $2, $2, $3, 'why')`,
        [s.id, due, outcome],
      );
    const listed = await listSchedules(file.db, scope(owner));
    expect(listed.map((l) => [l.id, l.last_fire?.outcome ?? null])).toEqual([
      [s.id, "skipped"],
      [idle.id, null],
    ]);
    expect(listed[0]?.last_fire).toEqual({
      due_at: "2026-01-01T03:00:00.000Z",
      fired_at: "2026-01-01T03:00:00.000Z",
      outcome: "skipped",
      execution_id: null,
      detail: "why",
    });
    const fires = await listFires(file.db, scope(owner), s.id);
    expect(fires.map((f) => f.outcome)).toEqual(["skipped", "missed", "started"]);
    expect((await listFires(file.db, scope(owner), s.id, 1)).map((f) => f.outcome)).toEqual([
      "skipped",
    ]);
  });
});

describe("a crew's number of schedules", () => {
  it("is at most MAX_SCHEDULES_PER_CREW", async () => {
    const { createSchedule, MAX_SCHEDULES_PER_CREW } = await store();
    const crew = await noInputs();
    const { rows } = await file.db.query(
      "SELECT count(*)::int AS n FROM schedules WHERE crew = 'no-inputs'",
    );
    const have = Number(rows[0]?.n);
    for (let i = have; i < MAX_SCHEDULES_PER_CREW - 1; i++)
      await file.db.query(
        `INSERT INTO schedules (id, crew, name, cron, timezone, inputs, overlap, catch_up, paused,
                                created_by)
         VALUES ($1, 'no-inputs', 'filler', '0 * * * *', 'UTC', '{}', 'allow', 1, true, 'test')`,
        [crypto.randomUUID()],
      );
    await createSchedule(file.db, crew, ORG, hourly); // the last one allowed
    await expect(createSchedule(file.db, crew, ORG, hourly)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/the most it may have/),
    });
  });
});
