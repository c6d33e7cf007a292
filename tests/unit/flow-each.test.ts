import { describe, expect, it } from "vitest";
import type { FlowPlan } from "@/lib/crew/flow-plan";
import type { FlowAction } from "@/lib/crew/flow-schema";
import type { Db } from "@/lib/db/types";
import { runEach } from "@/lib/flows/run-each";
import type { FlowCurrent } from "@/lib/run-model/flow-progress";
import { flowMethod, flowPlan } from "../support/flow-plans";

// A flow's `each` over a caller's list: what one item costs must not grow with the list (no
// per-item conversion or copy of the state, the outputs or the results so far), the list is
// capped, and the loop gives the event loop a turn. Counted, not timed: the getters below count
// every time the state's list or an earlier output is read whole.

type Each = Extract<FlowAction, { call: "each" }>;

const EACH: Each = {
  call: "each",
  in: "state.topics",
  do: [
    { name: "line", action: { call: "expression", expr: "'- ' + item" } },
    {
      name: "loud",
      if: "item.startsWith('fix')",
      action: { call: "expression", expr: "outputs.line + ' (fix)'" },
    },
  ],
};
const method = flowMethod("lines", { start: true, do: EACH });
const plan = flowPlan([method]);
const cur: FlowCurrent = { method: "lines", run: 1, trigger: null, started_at: "" };
// Expressions only: nothing is read or written (a step that waits would store what it has).
const noDb: Db = {
  kind: "embedded",
  query: () => Promise.reject(new Error("an each of expressions needs no database")),
  tx: () => Promise.reject(new Error("an each of expressions needs no database")),
  listen: () => Promise.reject(new Error("unused")),
  close: () => Promise.resolve(),
};

/** A state whose list, and outputs whose earlier result, count how often they are read whole. */
function counted(topics: string[]) {
  const reads = { state: 0, outputs: 0 };
  const earlier = topics.slice(0, 10).map((t) => t.length);
  const state = {
    get topics() {
      reads.state++;
      return topics;
    },
  };
  const outputs = {
    get collect() {
      reads.outputs++;
      return earlier;
    },
  };
  return { reads, base: { state, outputs } };
}

const topics = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 3 ? `add ${i}` : `fix ${i}`));

describe("a flow's each", () => {
  it("reads the state and the earlier outputs once per method, not once per item", async () => {
    const { reads, base } = counted(topics(2_000));
    const ran = await runEach({ db: noDb, flowId: "f", plan, method, action: EACH, cur, base });
    expect("output" in ran && ran.output).toEqual(
      topics(2_000).map((t) => (t.startsWith("fix") ? `- ${t} (fix)` : `- ${t}`)),
    );
    // Before: the whole state and every earlier output converted for each of 3,334 evaluations.
    expect(reads.state).toBeLessThanOrEqual(1);
    expect(reads.outputs).toBeLessThanOrEqual(1);
  });

  it("gives the event loop a turn while it works through the items", async () => {
    const { base } = counted(topics(2_000));
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const ran = runEach({ db: noDb, flowId: "f", plan, method, action: EACH, cur, base });
    // The first turn is taken before the loop starts: count the ones it gave while working.
    await ran.finally(() => {
      running = false;
    });
    // Before: expression steps only await resolved promises, and no other callback ran.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it("refuses a list longer than the cap, naming the cap", async () => {
    const { EACH_MAX_ITEMS } = await import("@/lib/crew/flow-each");
    expect(EACH_MAX_ITEMS).toBe(10_000);
    const at = counted(topics(EACH_MAX_ITEMS));
    const ran = await runEach({ db: noDb, flowId: "f", plan, method, action: EACH, cur, ...at });
    expect("output" in ran && (ran.output as unknown[]).length).toBe(EACH_MAX_ITEMS);
    const over = counted(topics(EACH_MAX_ITEMS + 1));
    await expect(
      runEach({ db: noDb, flowId: "f", plan, method, action: EACH, cur, ...over }),
    ).rejects.toThrow("method 'lines': each.in gave 10001 items; an each takes at most 10000");
  });
});

describe("an each written by an earlier version", () => {
  it("goes on from where it stood, its list and results kept in the progress", async () => {
    const legacy: FlowCurrent = {
      ...cur,
      each: {
        items: ["fix a", "add b", "fix c"],
        results: ["one", "two"],
        index: 2,
        step: 0,
        local: {},
        last: null,
      },
    };
    const base = { state: {}, outputs: {} };
    const ran = await runEach({
      db: noDb,
      flowId: "f",
      plan,
      method,
      action: EACH,
      cur: legacy,
      base,
    });
    expect("output" in ran && ran.output).toEqual(["one", "two", "- fix c (fix)"]);
  });
});

describe("an each's cap at kickoff", () => {
  const over = (n: number) => Array.from({ length: n }, (_, i) => i);
  const planOver = (expression: string): FlowPlan => ({
    ...plan,
    methods: [{ ...method, do: { ...EACH, in: expression } }],
  });

  it("refuses a list the state gives, naming the input it came from", async () => {
    const { assertEachLimits } = await import("@/lib/crew/flow-each");
    const refused = (expression: string, state: Record<string, unknown>) => {
      try {
        assertEachLimits(planOver(expression), state);
      } catch (err) {
        return err;
      }
    };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CEL, as CrewAI writes it
    expect(refused("${state.topics}", { topics: over(10_001) })).toMatchObject({
      status: 422,
      details: { errors: [{ path: "inputs.topics" }] },
    });
    // Worked out from the state alone: known now too, from no one input.
    expect(refused("state.a + state.b", { a: over(6_000), b: over(6_000) })).toMatchObject({
      status: 422,
      message: expect.stringContaining("each.in gave 12000 items"),
      details: { errors: [{ path: "inputs" }] },
    });
    // At the cap, from the outputs (known later), or not a list (the run says why): let through.
    expect(refused("state.topics", { topics: over(10_000) })).toBeUndefined();
    expect(refused("outputs.x + state.topics", { topics: over(10_001) })).toBeUndefined();
    expect(refused("state.__proto__", {})).toBeUndefined();
  });
});
