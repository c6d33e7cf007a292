import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { applyMapping } from "@/lib/triggers/payload-mapping";
import { DB_KINDS, openTestDb } from "../support/both-dbs";
import { ORG } from "../support/principals";
import { queryAs } from "../support/rows";

// CEL in a trigger runs under a cost limit. The attack: one signed delivery with a 300-item list
// held the process 13 s through nested macros, and a 220-character expression with no payload
// 4.9 s. Now the first is that delivery's recorded failure, refused before anything runs, and
// the second cannot be saved. Before the limit, each of these evaluated to the end (seconds,
// then minutes as the nesting grows) and the assertions below failed.

const ITEMS = Array.from({ length: 300 }, (_, i) => i);
// 300 × 300 × 300 turns: ≈ 27 million.
const CUBE = "payload.items.map(a, payload.items.map(b, payload.items.exists(c, c < 0)))";
// Ten items nested eight deep: 10⁸ turns, whatever the payload.
const NESTED = `cel.bind(l, [0,1,2,3,4,5,6,7,8,9], l.map(a, l.map(b, l.map(c, l.map(d, l.map(e, l.map(f, l.map(g, l.map(h, a)))))))))`;
const LIMIT = /exceeded its cost limit of 1,000,000/;

describe("a trigger mapping's CEL, without a database", () => {
  it("refuses the 300-item delivery's nested macros as that input's error", () => {
    const { inputs, errors } = applyMapping(
      { job: CUBE, count: "size(payload.items)" },
      { items: ITEMS },
      {},
    );
    expect(inputs).toEqual({ count: 300 });
    expect(errors).toEqual([{ path: "mapping.job", message: expect.stringMatching(LIMIT) }]);
  });

  it("refuses nested macros over literals whatever the payload", () => {
    const { errors } = applyMapping({ job: NESTED }, {}, {});
    expect(errors).toEqual([
      {
        path: "mapping.job",
        message: expect.stringMatching(/would exceed the CEL cost limit of 1,000,000 on every/),
      },
    ]);
  });

  it("shares one budget between a mapping's inputs", () => {
    // Each alone fits; the third goes past what the first two left.
    const third = "payload.items.map(a, payload.items.map(b, a + b))";
    const { inputs, errors } = applyMapping(
      { a: third, b: third, c: third },
      { items: ITEMS.slice(0, 220) },
      {},
    );
    expect(Object.keys(inputs)).toEqual(["a", "b"]);
    expect(errors).toEqual([
      { path: "mapping.c", message: expect.stringMatching(/left after the ones before/) },
    ]);
  });
});

describe.each(DB_KINDS)("a trigger's CEL cost (%s)", (kind) => {
  let db: Db;
  let close: () => Promise<void>;
  let crew: CrewDef;
  let triggers: typeof import("@/lib/triggers/store");
  let receive: typeof import("@/lib/triggers/receive");
  let contract: typeof import("@/lib/contract/triggers");

  beforeAll(async () => {
    process.env.CREWS_DIR = path.resolve("tests/fixtures/crews");
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-cel-cost-"));
    ({ db, close } = await openTestDb(kind));
    const { findCrew } = await import("@/lib/crew/registry");
    const found = findCrew("three-step");
    if (!found) throw new Error("fixture crew three-step missing");
    crew = found;
    triggers = await import("@/lib/triggers/store");
    receive = await import("@/lib/triggers/receive");
    contract = await import("@/lib/contract/triggers");
  });
  afterAll(() => close());

  const create = (mapping: Record<string, string>, key?: string) =>
    triggers.createTrigger(
      db,
      crew,
      ORG,
      contract.TriggerCreateSchema.parse({
        name: `Costly ${randomUUID().slice(0, 6)}`,
        signature: "shared",
        mapping,
        ...(key ? { concurrency: { key, policy: "enqueue" } } : {}),
      }),
    );

  const deliver = (t: { id: string; secret: string }, payload: object) =>
    receive.receiveDelivery(db, {
      triggerId: t.id,
      headers: { authorization: `Bearer ${t.secret}`, "idempotency-key": randomUUID() },
      body: Buffer.from(JSON.stringify(payload)),
    });

  const runsOf = async (triggerId: string) =>
    (
      await queryAs<{ n: number }>(
        db,
        "SELECT count(*)::int AS n FROM executions WHERE trigger_id = $1",
        [triggerId],
      )
    ).rows[0]?.n;

  it("a mapping or key past the limit whatever the payload is a 422 naming the field", async () => {
    await expect(create({ job: NESTED })).rejects.toMatchObject({
      status: 422,
      details: { errors: [{ path: "mapping.job", message: expect.stringMatching(/cost limit/) }] },
    });
    await expect(create({ job: "$.job" }, `string(size(${NESTED}))`)).rejects.toMatchObject({
      status: 422,
      details: {
        errors: [{ path: "concurrency.key", message: expect.stringMatching(/cost limit/) }],
      },
    });
  });

  it("the 300-item delivery fails alone, logged, and starts nothing; the next one runs", async () => {
    const t = await create({ job: `string(size(${CUBE}))` });
    const refused = await deliver(t, { items: ITEMS });
    expect(refused).toMatchObject({ ok: false, answer: { status: 422, outcome: "invalid" } });
    if (!refused.ok)
      expect(refused.answer.errors).toEqual([
        { path: "mapping.job", message: expect.stringMatching(LIMIT) },
      ]);
    const { rows } = await queryAs<{ outcome: string; errors: unknown }>(
      db,
      "SELECT outcome, errors FROM trigger_events WHERE trigger_id = $1",
      [t.id],
    );
    expect(rows).toEqual([
      {
        outcome: "invalid",
        errors: [{ path: "mapping.job", message: expect.stringMatching(LIMIT) }],
      },
    ]);
    // A small list costs little: the same trigger takes it.
    expect(await deliver(t, { items: [1, 2, 3] })).toMatchObject({ ok: true });
    expect(await runsOf(t.id)).toBe(1);
  });

  it("the same through the concurrency key", async () => {
    const t = await create({ job: "$.job" }, `string(size(${CUBE}))`);
    const refused = await deliver(t, { job: "tides", items: ITEMS });
    expect(refused).toMatchObject({ ok: false, answer: { status: 422, outcome: "invalid" } });
    if (!refused.ok)
      expect(refused.answer.errors).toEqual([
        { path: "concurrency.key", message: expect.stringMatching(LIMIT) },
      ]);
    expect(await runsOf(t.id)).toBe(0);
  });
});
