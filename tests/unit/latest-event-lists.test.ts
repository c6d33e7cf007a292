import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/types";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";

// The triggers and schedules lists show each one's latest delivery or fire, read one row per
// trigger or schedule from its index (not every event ever logged): the same answer as before.

describe.each(DB_KINDS)("the latest event in the lists (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let triggers: typeof import("@/lib/triggers/store");
  let schedules: typeof import("@/lib/schedules/store");
  let registry: typeof import("@/lib/crew/registry");
  let contract: typeof import("@/lib/contract/triggers");

  beforeAll(async () => {
    process.env.CREWS_DIR = path.resolve("tests/fixtures/crews");
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-latest-"));
    ({ db, close } = await openTestDb(kind));
    triggers = await import("@/lib/triggers/store");
    schedules = await import("@/lib/schedules/store");
    registry = await import("@/lib/crew/registry");
    contract = await import("@/lib/contract/triggers");
  });
  afterAll(() => close());

  const crewOf = (slug: string) => {
    const crew = registry.findCrew(slug);
    if (!crew) throw new Error(`fixture crew ${slug} missing`);
    return crew;
  };

  it("each trigger shows its newest delivery, or none", async () => {
    const make = (slug: string, name: string) =>
      triggers.createTrigger(
        db,
        crewOf(slug),
        ORG,
        contract.TriggerCreateSchema.parse({ name, signature: "shared", mapping: {} }),
      );
    const busy = await make("three-step", "Busy");
    const quiet = await make("three-step", "Quiet");
    const elsewhere = await make("no-inputs", "Elsewhere");
    const log = (triggerId: string, at: string, status: number) =>
      db.query(
        `INSERT INTO trigger_events (id, trigger_id, outcome, status_code, received_at)
         VALUES ($1, $2, 'invalid', $3, $4)`,
        [randomUUID(), triggerId, status, at],
      );
    await log(busy.id, "2026-03-01T10:00:00Z", 400);
    await log(busy.id, "2026-03-01T12:00:00Z", 422);
    await log(busy.id, "2026-03-01T11:00:00Z", 409);
    await log(elsewhere.id, "2026-03-02T00:00:00Z", 401);
    const listed = await triggers.listTriggers(db, { crew: "three-step", owner: null });
    expect(listed.map((t) => [t.name, t.last_event?.status_code ?? null])).toEqual([
      ["Busy", 422],
      ["Quiet", null],
    ]);
    expect(listed[1]?.id).toBe(quiet.id);
    const other = await triggers.listTriggers(db, { crew: "no-inputs", owner: null });
    expect(other.map((t) => t.last_event?.status_code)).toEqual([401]);
  });

  it("a delivery forgets its trigger's entries older than 30 days", async () => {
    const t = await triggers.createTrigger(
      db,
      crewOf("three-step"),
      ORG,
      contract.TriggerCreateSchema.parse({ name: "Old log", signature: "shared", mapping: {} }),
    );
    const day = 86_400_000;
    const now = new Date("2026-05-01T00:00:00Z");
    for (const [detail, age] of [
      ["old", 31],
      ["recent", 29],
    ] as const)
      await db.query(
        `INSERT INTO trigger_events (id, trigger_id, outcome, status_code, detail, received_at)
         VALUES ($1, $2, 'invalid', 422, $3, $4)`,
        [randomUUID(), t.id, detail, new Date(now.getTime() - age * day)],
      );
    const receive = await import("@/lib/triggers/receive");
    await receive.receiveDelivery(db, {
      triggerId: t.id,
      headers: { authorization: `Bearer ${t.secret}`, "idempotency-key": randomUUID() },
      body: Buffer.from("{}"),
      now,
    });
    const { rows } = await db.query(
      "SELECT detail FROM trigger_events WHERE trigger_id = $1 ORDER BY received_at",
      [t.id],
    );
    expect(rows.map((r) => r.detail).slice(0, 1)).toEqual(["recent"]);
    expect(rows).toHaveLength(2); // and this delivery's own entry
  });

  it("each schedule shows its latest fire, or none", async () => {
    const make = (name: string) =>
      schedules.createSchedule(db, crewOf("no-inputs"), ORG, {
        name,
        cron: "0 * * * *",
        timezone: "UTC",
        inputs: {},
        overlap: "allow",
        catch_up: 1,
        paused: true,
      });
    const hourly = await make("Hourly");
    await make("Never");
    for (const [due, outcome] of [
      ["2026-03-01T01:00:00Z", "started"],
      ["2026-03-01T03:00:00Z", "skipped"],
      ["2026-03-01T02:00:00Z", "missed"],
    ])
      await db.query(
        "INSERT INTO schedule_fires (schedule_id, due_at, outcome) VALUES ($1, $2, $3)",
        [hourly.id, due, outcome],
      );
    const listed = await schedules.listSchedules(db, { crew: "no-inputs", owner: null });
    expect(listed.map((s) => [s.name, s.last_fire?.outcome ?? null])).toEqual([
      ["Hourly", "skipped"],
      ["Never", null],
    ]);
  });
});
