import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { Concurrency } from "@/lib/contract/crew";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG, userToken } from "../support/principals";
import { queryAs } from "../support/rows";

// A concurrency key of a person's token reaches only that person's runs (the token can see and
// stop no others): two people with one key on one crew, on both databases. Principals that see
// every run (the organization token, a person signed in, their triggers) keep the crew-wide key.
// And a key's stop reaches a flow's nested runs in the same transaction, so a process dying
// right after the commit leaves none running.
const ada = { id: randomUUID(), email: "ada@example.com" };
const bob = { id: randomUUID(), email: "bob@example.com" };
const adaToken = userToken(ada.id, ada.email);
const bobToken = userToken(bob.id, bob.email);
const adaSession: Principal = { kind: "session", userId: ada.id, email: ada.email, role: "admin" };
const bobSession: Principal = { kind: "session", userId: bob.id, email: bob.email, role: "admin" };
const unique = () => `issue-${randomUUID().slice(0, 8)}`;

describe.each(DB_KINDS)("concurrency keys and owners (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let crew: CrewDef;
  let flow: CrewDef;
  let runs: typeof import("@/lib/runs/create-execution");
  let concurrency: typeof import("@/lib/runs/concurrency");
  let claim: typeof import("@/lib/engine/claim");
  let nested: typeof import("@/lib/flows/nested-runs");
  let stop: typeof import("@/lib/runs/stop-execution");
  let triggers: typeof import("@/lib/triggers/store");
  let receive: typeof import("@/lib/triggers/receive");
  let contract: typeof import("@/lib/contract/triggers");

  beforeAll(async () => {
    process.env.CREWS_DIR = path.resolve("tests/fixtures/crews");
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-keys-"));
    ({ db, close } = await openTestDb(kind));
    const { findCrew } = await import("@/lib/crew/registry");
    const pick = (slug: string) => {
      const found = findCrew(slug);
      if (!found) throw new Error(`fixture crew ${slug} missing`);
      return found;
    };
    crew = pick("three-step");
    flow = pick("release-flow");
    runs = await import("@/lib/runs/create-execution");
    concurrency = await import("@/lib/runs/concurrency");
    claim = await import("@/lib/engine/claim");
    nested = await import("@/lib/flows/nested-runs");
    stop = await import("@/lib/runs/stop-execution");
    triggers = await import("@/lib/triggers/store");
    receive = await import("@/lib/triggers/receive");
    contract = await import("@/lib/contract/triggers");
    for (const u of [ada, bob])
      await db.query("INSERT INTO users (id, email, role) VALUES ($1, $2, 'operator')", [
        u.id,
        u.email,
      ]);
  });
  afterAll(() => close());

  const kick = (principal: Principal, key: string, policy: Concurrency["policy"]) =>
    runs.createExecution({
      db,
      crew,
      principal,
      request: { inputs: { job: "x" }, concurrency: { key, policy } },
    });

  async function statusOf(id: string) {
    const { rows } = await queryAs<{ status: string }>(
      db,
      "SELECT status FROM executions WHERE id = $1",
      [id],
    );
    return rows[0]?.status;
  }

  /** What a worker would claim now (every claimable run, leased to a worker of the test's). */
  async function claimable() {
    const claimed = await claim.claimRuns(db, {
      workerId: `test/${randomUUID()}`,
      leaseMs: 60_000,
      running: [],
      limit: 1000,
    });
    return claimed.map((r) => r.id);
  }

  it("stop: another person's token leaves the run alone; its own goes ahead", async () => {
    const key = unique();
    const a = await kick(adaToken, key, "enqueue");
    const b = await kick(bobToken, key, "stop");
    expect(await statusOf(a)).toBe("queued");
    expect(await statusOf(b)).toBe("queued");
  });

  it("reject: another person's run does not count, and a 409 names only the caller's own", async () => {
    const key = unique();
    const a = await kick(adaToken, key, "reject");
    const b = await kick(bobToken, key, "reject");
    const refused = kick(bobToken, key, "reject");
    await expect(refused).rejects.toMatchObject({
      status: 409,
      details: { execution_id: b, concurrency_key: key },
    });
    await expect(refused).rejects.not.toThrow(a);
  });

  it("enqueue: another person's run is claimable while the first is active; the same person's waits", async () => {
    const key = unique();
    const a1 = await kick(adaToken, key, "enqueue");
    const b = await kick(bobToken, key, "enqueue");
    const a2 = await kick(adaToken, key, "enqueue");
    const ids = await claimable();
    expect(ids).toContain(a1);
    expect(ids).toContain(b);
    expect(ids).not.toContain(a2);
  });

  it("the organization token and people signed in see every run with the key", async () => {
    const key = unique();
    const a = await kick(adaToken, key, "enqueue");
    const b = await kick(bobToken, key, "enqueue");
    for (const principal of [ORG, bobSession])
      await expect(kick(principal, key, "reject")).rejects.toMatchObject({
        status: 409,
        details: { execution_id: a },
      });
    // An enqueued org run waits for both people's runs.
    const waiting = await kick(ORG, key, "enqueue");
    expect(await claimable()).not.toContain(waiting);
    await kick(ORG, key, "stop");
    expect([await statusOf(a), await statusOf(b), await statusOf(waiting)]).toEqual([
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
  });

  it("a person's token stops that person's own runs, whichever way they started", async () => {
    const key = unique();
    const bySession = await kick(adaSession, key, "enqueue");
    const byToken = await kick(adaToken, key, "enqueue");
    await expect(kick(adaToken, key, "reject")).rejects.toMatchObject({
      details: { execution_id: bySession },
    });
    await kick(adaToken, key, "stop");
    expect([await statusOf(bySession), await statusOf(byToken)]).toEqual([
      "cancelled",
      "cancelled",
    ]);
  });

  it("a trigger a person's token made keys only that person's runs; an org token's, every run", async () => {
    const key = unique();
    const a = await kick(adaToken, key, "enqueue");
    const deliver = async (principal: Principal, editedBy?: Principal) => {
      const body = contract.TriggerCreateSchema.parse({
        name: `On issue ${randomUUID().slice(0, 6)}`,
        signature: "shared",
        inputs: { job: "x" },
        concurrency: { key: "$.issue", policy: "stop" },
      });
      const t = await triggers.createTrigger(db, crew, principal, body);
      if (editedBy) await triggers.updateTrigger(db, crew, editedBy, t.id, { name: "Edited" });
      const got = await receive.receiveDelivery(db, {
        triggerId: t.id,
        headers: { authorization: `Bearer ${t.secret}` },
        body: Buffer.from(JSON.stringify({ issue: key })),
      });
      expect(got.ok).toBe(true);
    };
    await deliver(bobToken);
    // Made by Bob signed in, then saved by his token: the token's reach from then on.
    await deliver(bobSession, bobToken);
    expect(await statusOf(a)).toBe("queued");
    await deliver(ORG);
    expect(await statusOf(a)).toBe("cancelled");
  });

  it("stop: a flow's nested runs are stopped with it in the same transaction", async () => {
    const key = unique();
    const f = await runs.createExecution({
      db,
      crew: flow,
      principal: ORG,
      request: {
        inputs: { product: "Kelp", changes: JSON.stringify(["fix a"]) },
        concurrency: { key, policy: "enqueue" },
      },
    });
    const child = nested.nestedRunId(f, "draft");
    await nested.startNestedRun(db, {
      id: child,
      flowId: f,
      crew,
      inputs: { job: "x" },
      method: "draft",
    });
    expect(await statusOf(child)).toBe("queued");
    // Only the transaction: the process "dies" before any step after its commit.
    const stopped = await concurrency.withConcurrency(
      db,
      flow.slug,
      { key, policy: "stop" },
      { id: randomUUID(), by: "test", owner: null },
      async () => [],
    );
    expect(stopped).toContain(f);
    expect([await statusOf(f), await statusOf(child)]).toEqual(["cancelled", "cancelled"]);
  });

  it("a flow stopped on request stops its nested runs, and starts none afterwards", async () => {
    const f = await runs.createExecution({
      db,
      crew: flow,
      principal: ORG,
      request: { inputs: { product: "Kelp", changes: JSON.stringify(["fix a"]) } },
    });
    const first = nested.nestedRunId(f, "collect");
    await nested.startNestedRun(db, {
      id: first,
      flowId: f,
      crew,
      inputs: { job: "x" },
      method: "collect",
    });
    await stop.stopExecution({ db, crew: flow.slug, id: f, principal: ORG });
    expect(await statusOf(first)).toBe("cancelled");
    const child = nested.nestedRunId(f, "draft");
    await nested.startNestedRun(db, {
      id: child,
      flowId: f,
      crew,
      inputs: { job: "x" },
      method: "draft",
    });
    expect(await nested.readNestedRun(db, child)).toBeUndefined();
  });
});
