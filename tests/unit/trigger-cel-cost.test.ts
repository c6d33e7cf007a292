import { describe, expect, it } from "vitest";
import { applyMapping } from "@/lib/triggers/payload-mapping";
import { DB_KINDS } from "../support/both-dbs";
import { triggerBench } from "../support/trigger-bench";

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
  const {
    sharedTrigger,
    deliverShared: deliver,
    runsOf,
    eventsOf,
  } = triggerBench(kind, "cel-cost");

  const create = (mapping: Record<string, string>, key?: string) =>
    sharedTrigger("Costly", mapping, key);

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
    expect(await eventsOf(t.id)).toEqual([
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
