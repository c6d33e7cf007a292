import { describe, expect, it } from "vitest";
import { applyMapping, checkMapping } from "@/lib/triggers/payload-mapping";
import { DB_KINDS } from "../support/both-dbs";
import { triggerBench } from "../support/trigger-bench";

// JSONPath in a trigger runs under a budget. The audit: `$..*..*..*..*..*` over a 121-byte
// payload took 6.4 s (one more `..*`, an out-of-memory kill), nested filters ×5 a level, and
// match()/search() ran on backtracking RegExp (`(a+)+b` over 26 characters: 1 s, doubling).
// Before the budget, the refusals below were accepted and the deliveries ran to the end.

// 60 nested arrays: 121 bytes.
const DEEP = JSON.parse(`${"[".repeat(60)}${"]".repeat(60)}`);
const DESCENDANTS = "$..*..*..*..*..*";
const NESTED_FILTER = "$[?$[?@==-1]]";
const FROM_PAYLOAD = "$.items[?search(@, $.p)]";
const refusedBecause = (re: RegExp) => [{ path: "mapping.x", message: expect.stringMatching(re) }];

describe("a trigger mapping's JSONPath, without a database", () => {
  it("refuses at save what multiplies with the payload or takes its pattern from it", () => {
    expect(checkMapping({ x: DESCENDANTS })).toEqual(refusedBecause(/5 descendant segments/));
    expect(checkMapping({ x: NESTED_FILTER })).toEqual(refusedBecause(/filter inside a filter/));
    expect(checkMapping({ x: FROM_PAYLOAD })).toEqual(refusedBecause(/string literal/));
    expect(checkMapping({ x: "$[?match(@, '(?=a)')]" })).toEqual(refusedBecause(/RE2/));
    // One `..`, one filter level, a literal pattern: fine.
    expect(checkMapping({ x: "$..items[?search(@.name, '^p[0-9]')].name" })).toEqual([]);
  });

  it("runs match() and search() on RE2: (a+)+b over 40 characters answers at once", () => {
    const payload = { items: [`${"a".repeat(40)}!`, "aab", "xaabx"] };
    expect(
      applyMapping(
        { m: "$.items[?match(@, '(a+)+b')]", s: "$.items[?search(@, '(a+)+b')]" },
        payload,
        {},
      ),
    ).toEqual({ inputs: { m: ["aab"], s: ["aab", "xaabx"] }, errors: [] });
  });

  it("refuses an expression saved before the rules at delivery, without running it", () => {
    expect(applyMapping({ x: DESCENDANTS }, DEEP, {}).errors).toEqual(
      refusedBecause(/descendant segments/),
    );
  });

  it("stops a payload-driven query at its budget; under it, the query completes", () => {
    // Each item reads the whole payload again: items² steps.
    const all = "$.items[?count($..*) > 0]";
    const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => i) });
    expect(applyMapping({ x: all }, items(400), {})).toEqual({
      inputs: { x: items(400).items },
      errors: [],
    });
    expect(applyMapping({ x: all }, items(3000), {})).toEqual({
      inputs: {},
      errors: refusedBecause(/needs more than 1,000,000 steps over this payload, its budget/),
    });
    // A mapping's queries share one budget: each of these fits alone, not both.
    const shared = applyMapping({ a: all, b: all }, items(500), {});
    expect(shared.inputs).toEqual({ a: items(500).items });
    expect(shared.errors).toEqual([
      { path: "mapping.b", message: expect.stringMatching(/its budget/) },
    ]);
    // Repeated selectors multiply the nodes selected: capped at 10,000.
    const twelve = `$.items[${Array(12).fill("*").join(",")}]`;
    expect(applyMapping({ x: twelve }, items(1000), {}).errors).toEqual(
      refusedBecause(/selects more than 10,000 nodes/),
    );
  });
});

describe.each(DB_KINDS)("a trigger's JSONPath budget (%s)", (kind) => {
  const { bench, sharedTrigger, deliverShared: deliver, eventsOf } = triggerBench(kind, "jsonpath");

  const create = (mapping: Record<string, string>, key?: string) =>
    sharedTrigger("Paths", mapping, key);

  it("refuses the audit's expressions at save, a 422 naming the field", async () => {
    for (const bad of [DESCENDANTS, NESTED_FILTER, FROM_PAYLOAD])
      await expect(create({ job: bad })).rejects.toMatchObject({
        status: 422,
        details: { errors: [{ path: "mapping.job" }] },
      });
    await expect(create({ job: "$.job" }, DESCENDANTS)).rejects.toMatchObject({
      status: 422,
      details: { errors: [{ path: "concurrency.key" }] },
    });
  });

  it("a stored expression from before the rules fails that delivery alone, logged", async () => {
    const t = await create({ job: "$.job" });
    await bench().db.query("UPDATE triggers SET mapping = $1::jsonb WHERE id = $2", [
      JSON.stringify({ job: DESCENDANTS }),
      t.id,
    ]);
    const refused = await deliver(t, DEEP);
    expect(refused).toMatchObject({ ok: false, answer: { status: 422, outcome: "invalid" } });
    expect(await eventsOf(t.id)).toEqual([
      {
        outcome: "invalid",
        errors: [{ path: "mapping.job", message: expect.stringMatching(/descendant segments/) }],
      },
    ]);
  });

  it("a payload past the budget is that delivery's 422; a small one runs", async () => {
    const t = await create({ job: "$.items[?count($..*) > 0]" });
    const refused = await deliver(t, { items: Array.from({ length: 3000 }, (_, i) => i) });
    expect(refused).toMatchObject({ ok: false, answer: { status: 422, outcome: "invalid" } });
    if (!refused.ok)
      expect(refused.answer.errors).toEqual([
        { path: "mapping.job", message: expect.stringMatching(/its budget/) },
      ]);
    expect(await deliver(t, { items: [1, 2] })).toMatchObject({ ok: true });
  });
});
