import { describe, expect, it } from "vitest";
import { FlowExpressionError, renderTemplate } from "@/lib/crew/flow-eval";
import { engineHarness } from "../support/engine-harness";

// A flow's CEL runs under the same cost limit as a trigger's (lib/util/cel.ts). A flow whose
// expression is past it whatever the data still loads — CrewAI would run it — with a warning
// naming the key; the run then fails at that method with the limit's message, refused before it
// runs. One whose cost comes from the kickoff's data fails only for the data that is too large.
// Before the limit, each of these ran its macros to the end on the event loop (minutes), and the
// flow completed.

const ten = "[0,1,2,3,4,5,6,7,8,9]";
// 10⁷ turns of the innermost body, with no input at all.
const NESTED = Array.from("abcdefg").reduce((body, v) => `${ten}.map(${v}, ${body})`, "0");

const LITERALS = `
schema: crewai.flow/v1
name: NestedFlow
methods:
  spin:
    start: true
    do: { call: expression, expr: "${NESTED}" }
`;

const FROM_STATE = `
schema: crewai.flow/v1
name: CubeFlow
state:
  type: json_schema
  json_schema:
    type: object
    properties:
      items: { type: array, items: { type: integer } }
    required: [items]
methods:
  cube:
    start: true
    do:
      call: expression
      expr: "state.items.map(a, state.items.map(b, state.items.exists(c, c < 0))).size()"
  count:
    listen: cube
    do: { call: expression, expr: "outputs.cube" }
`;

const LIMIT = /method 'cube'.*exceeded its cost limit of 1,000,000/;

describe("CEL's cost limit in flows", () => {
  const h = engineHarness({ literals: LITERALS, from_state: FROM_STATE });
  const items = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i));

  it("loads a flow whose expression is past the limit whatever the data, and warns", () => {
    expect(h.crew("literals")).toBeDefined();
    expect(h.catalog().warnings).toContainEqual(
      expect.objectContaining({
        slug: "literals",
        key: "methods.spin.do.expr",
        message: expect.stringMatching(/would exceed the cost limit of 1,000,000 on every run/),
      }),
    );
    expect(h.catalog().warnings.filter((w) => w.slug === "from_state")).toEqual([]);
  });

  it("fails that run at the method, with the limit's message", async () => {
    const id = await h.kickoff("literals");
    const row = await h.waitFor(id, (r) => r.status === "error", 60_000);
    expect(row.error).toMatch(/method 'spin'.*exceeded its cost limit of 1,000,000/);
  });

  it("fails the run whose 300 items make nested macros too costly; 10 items complete", async () => {
    const big = await h.kickoff("from_state", { items: items(300) });
    const failed = await h.waitFor(big, (r) => r.status === "error", 60_000);
    expect(failed.error).toMatch(LIMIT);
    const small = await h.kickoff("from_state", { items: items(10) });
    const done = await h.waitFor(small, (r) => r.status === "completed", 60_000);
    expect(done.result).toBe("10");
  });
});

describe("a flow template's CEL", () => {
  it("shares one budget between its expressions, as a trigger's mapping does", () => {
    const square = `\${state.items.map(x, state.items.map(y, x + y))}`;
    const state = { items: Array.from({ length: 220 }, (_, i) => i) };
    // Each alone fits; three would cost three times the limit's worth of work between them.
    const two = renderTemplate({ a: square, b: square }, { state });
    expect(two).toMatchObject({ a: expect.any(Array), b: expect.any(Array) });
    const three = () => renderTemplate({ a: square, b: square, c: square }, { state });
    expect(three).toThrow(FlowExpressionError);
    expect(three).toThrow(/left after the ones before/);
  });
});
