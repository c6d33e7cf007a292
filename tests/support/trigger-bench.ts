import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { type DbKind, openTestDb } from "./both-dbs";
import { ORG } from "./principals";
import { queryAs } from "./rows";

// Triggers of the fixture crew three-step on a fresh database, for the unit tests of
// lib/triggers. The modules are imported in beforeAll, once CREWS_DIR and DATA_DIR are set.

type Bench = {
  db: Db;
  close: () => Promise<void>;
  crew: CrewDef;
  triggers: typeof import("@/lib/triggers/store");
  receive: typeof import("@/lib/triggers/receive");
  contract: typeof import("@/lib/contract/triggers");
};

async function openBench(kind: DbKind, name: string): Promise<Bench> {
  process.env.CREWS_DIR = path.resolve("tests/fixtures/crews");
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), `crewdeck-${name}-`));
  const { db, close } = await openTestDb(kind);
  const { findCrew } = await import("@/lib/crew/registry");
  const crew = findCrew("three-step");
  if (!crew) throw new Error("fixture crew three-step missing");
  return {
    db,
    close,
    crew,
    triggers: await import("@/lib/triggers/store"),
    receive: await import("@/lib/triggers/receive"),
    contract: await import("@/lib/contract/triggers"),
  };
}

/**
 * Opens the bench before the describe's tests (its data in a temporary folder named after
 * `name`) and closes it after them; `bench()` is it, within a test.
 */
export function triggerBench(kind: DbKind, name: string) {
  let opened: Bench | undefined;
  beforeAll(async () => {
    opened = await openBench(kind, name);
  });
  afterAll(() => opened?.close());
  const bench = () => {
    if (!opened) throw new Error("the trigger bench opens in beforeAll");
    return opened;
  };

  /** A trigger with a shared secret, named `title` and a few random letters. */
  const sharedTrigger = (title: string, mapping: Record<string, string>, key?: string) => {
    const { db, crew, triggers, contract } = bench();
    return triggers.createTrigger(
      db,
      crew,
      ORG,
      contract.TriggerCreateSchema.parse({
        name: `${title} ${randomUUID().slice(0, 6)}`,
        signature: "shared",
        mapping,
        ...(key ? { concurrency: { key, policy: "enqueue" } } : {}),
      }),
    );
  };

  /** `payload` delivered to a shared-secret trigger, under a new idempotency key. */
  const deliverShared = (t: { id: string; secret: string }, payload: unknown) =>
    bench().receive.receiveDelivery(bench().db, {
      triggerId: t.id,
      headers: { authorization: `Bearer ${t.secret}`, "idempotency-key": randomUUID() },
      body: Buffer.from(JSON.stringify(payload)),
    });

  /** How many runs the trigger has started. */
  const runsOf = async (triggerId: string) =>
    (
      await queryAs<{ n: number }>(
        bench().db,
        "SELECT count(*)::int AS n FROM executions WHERE trigger_id = $1",
        [triggerId],
      )
    ).rows[0]?.n;

  /** What the trigger's deliveries came to, as logged. */
  const eventsOf = async (triggerId: string) =>
    (
      await queryAs<{ outcome: string; errors: unknown }>(
        bench().db,
        "SELECT outcome, errors FROM trigger_events WHERE trigger_id = $1",
        [triggerId],
      )
    ).rows;

  return { bench, sharedTrigger, deliverShared, runsOf, eventsOf };
}
