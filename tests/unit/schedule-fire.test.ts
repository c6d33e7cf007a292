import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";

// The scheduler's claim, on the embedded database, with time passed in: each due time fires once,
// however often the scheduler looks, and the runs it starts say so.
let db: Db;
let close: () => Promise<void>;
let fire: typeof import("@/lib/schedules/fire");
let store: typeof import("@/lib/schedules/store");
let registry: typeof import("@/lib/crew/registry");

beforeAll(async () => {
  process.env.CREWS_DIR = path.resolve("tests/fixtures/crews");
  ({ db, close } = await openTestDb("embedded"));
  fire = await import("@/lib/schedules/fire");
  store = await import("@/lib/schedules/store");
  registry = await import("@/lib/crew/registry");
});
afterAll(() => close());

const at = (iso: string) => new Date(iso);

describe("fireDueSchedules", () => {
  it("starts one run per due time, once, and moves on", async () => {
    const crew = registry.findCrew("no-inputs");
    if (!crew) throw new Error("fixture crew no-inputs missing");
    const s = await store.createSchedule(
      db,
      crew,
      ORG,
      {
        name: "Hourly",
        cron: "0 * * * *",
        timezone: "UTC",
        inputs: {},
        overlap: "allow",
        catch_up: 1,
        paused: false,
      },
      at("2026-01-01T00:30:00Z"),
    );
    expect(s.next_fire_times[0]).toBe("2026-01-01T01:00:00.000Z");
    expect(await fire.fireDueSchedules(db, at("2026-01-01T00:59:59Z"))).toBe(0);
    expect(await fire.fireDueSchedules(db, at("2026-01-01T01:00:00Z"))).toBe(1);
    expect(await fire.fireDueSchedules(db, at("2026-01-01T01:00:30Z"))).toBe(0);
    // Three hours down: one catch-up run (the latest), two recorded as missed.
    expect(await fire.fireDueSchedules(db, at("2026-01-01T04:10:00Z"))).toBe(1);
    const fires = await store.listFires(db, { crew: "no-inputs", owner: null }, s.id);
    expect(fires.map((f) => [f.due_at.slice(11, 16), f.outcome])).toEqual([
      ["04:00", "started"],
      ["02:00", "missed"],
      ["01:00", "started"],
    ]);
    expect(fires[1]?.detail).toMatch(/^2 due times from .*02:00.* to .*03:00/);
  });

  it("a schedule whose firing fails does not hold back the ones due after it", async () => {
    const crew = registry.findCrew("no-inputs");
    if (!crew) throw new Error("fixture crew no-inputs missing");
    const make = (name: string, cron: string) =>
      store.createSchedule(
        db,
        crew,
        ORG,
        { name, cron, timezone: "UTC", inputs: {}, overlap: "allow", catch_up: 1, paused: false },
        at("2026-02-01T00:00:00Z"),
      );
    await db.query("DELETE FROM schedules"); // the first test's, due again by now
    const first = await make("Due first", "0 1 * * *");
    const second = await make("Due second", "0 2 * * *");
    // Its due time already recorded: writing it again breaks the primary key, so it fails.
    await db.query(
      "INSERT INTO schedule_fires (schedule_id, due_at, outcome) VALUES ($1, $2, 'missed')",
      [first.id, at("2026-02-01T01:00:00Z")],
    );
    const logged: string[] = [];
    const started = await fire.fireDueSchedules(db, at("2026-02-01T02:30:00Z"), (l) =>
      logged.push(l),
    );
    expect(started).toBe(1);
    expect(logged.join("\n")).toMatch(/Due first: .* \(tried again at the next tick\)/);
    const fires = await store.listFires(db, { crew: "no-inputs", owner: null }, second.id);
    expect(fires.map((f) => f.outcome)).toEqual(["started"]);
  });
});
