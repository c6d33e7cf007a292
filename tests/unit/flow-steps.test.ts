import { describe, expect, it } from "vitest";
import { FlowExpressionError } from "@/lib/crew/flow-eval";
import { FlowStepError } from "@/lib/flows/flow-actions";
import { routedOutcome } from "@/lib/flows/flow-changes";
import {
  flowCompleted,
  flowFailed,
  flowFailureMessage,
  flowStarted,
  isFlowError,
} from "@/lib/flows/flow-lifecycle";
import { cursorOf, eachItems } from "@/lib/flows/run-each";
import { FlowLoopError, initialProgress } from "@/lib/run-model/flow-progress";
import type { ExecutionRow } from "@/lib/run-model/types";
import { flowPlan, flowMethod as method } from "../support/flow-plans";
import { def, runAwaiting, state } from "../support/review-rows";

// A flow run's start, completion and failure, a router's outcome and where an `each` stands:
// decided on the row and the plan alone, without a worker or a database.

const plan = flowPlan([method("begin", { start: true })]);
const usage = (n: number) => ({ input_tokens: n, output_tokens: n, total_tokens: 2 * n });

/** A flow run: `status`, with progress unless `fresh`. */
function flowRun(status: ExecutionRow["status"], { fresh = false } = {}): ExecutionRow {
  const { row } = runAwaiting([def("begin")], [state("begin", "pending_human_input")]);
  const flow = fresh ? null : { ...initialProgress(plan, {}), last_output: { done: 1 } };
  const tasks = [state("begin", "running")];
  return { ...row, status, flow, tasks, open_reviews: [], token_usage: usage(1) };
}

describe("a flow's start", () => {
  it("starts a queued flow with its progress", () => {
    const change = flowStarted(flowRun("queued", { fresh: true }), plan, "w1");
    expect(change.patch?.status).toBe("running");
    expect(change.patch?.started_at).toBeInstanceOf(Date);
    expect(change.patch?.flow).toEqual(initialProgress(plan, {}));
    expect(change.events).toEqual([{ type: "execution_started", data: { worker: "w1" } }]);
  });

  it("goes on with a flow taken over, keeping its progress and status", () => {
    const change = flowStarted(flowRun("running"), plan, "w2");
    expect(change.patch).toEqual({});
    expect(change.events).toEqual([{ type: "execution_resumed", data: { worker: "w2" } }]);
  });
});

describe("a flow's completion", () => {
  it("gives its last output as the result and lets go of the lease", () => {
    const change = flowCompleted(flowRun("running"));
    expect(change.patch).toMatchObject({
      status: "completed",
      result: JSON.stringify({ done: 1 }),
      current_task: null,
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(change.events?.[0]?.data).toEqual({
      result: change.patch?.result,
      token_usage: usage(1),
    });
  });
});

describe("a flow's failure", () => {
  it("says the flow's own errors with their method, once", () => {
    expect(flowFailureMessage(new FlowStepError("each.in is not a list"), "split")).toBe(
      "method 'split': each.in is not a list",
    );
    expect(flowFailureMessage(new FlowStepError("method 'split': bad"), "split")).toBe(
      "method 'split': bad",
    );
    expect(flowFailureMessage(new FlowLoopError("too many calls"), null)).toBe("too many calls");
  });

  it("hides the engine's own bugs behind the server log", () => {
    expect(isFlowError(new TypeError("x is undefined"))).toBe(false);
    expect(isFlowError(new FlowExpressionError("bad CEL"))).toBe(true);
    expect(flowFailureMessage(new TypeError("x is undefined"), "m")).toBe(
      "method 'm': The flow failed unexpectedly; see the server log.",
    );
  });

  it("counts what the nested runs used, when it could be read", () => {
    const row = flowRun("running");
    const own = { ...row, flow: row.flow && { ...row.flow, own_usage: usage(2) } };
    const failed = flowFailed(own, "begin", "boom", usage(3));
    expect(failed.patch?.status).toBe("error");
    expect(failed.patch?.token_usage).toEqual(usage(5));
    expect(flowFailed(own, "begin", "boom", undefined).patch?.token_usage).toBeUndefined();
  });
});

describe("a router's outcome", () => {
  const router = method("route", { router: true, emit: ["yes", "no"] });

  it("is the known one when a reviewer chose it, and not read for other methods", () => {
    expect(routedOutcome(router, "route", "no", "yes")).toEqual({ outcome: "yes", warnings: [] });
    expect(routedOutcome(method("plain"), "plain", "yes", undefined)).toEqual({
      outcome: undefined,
      warnings: [],
    });
    expect(routedOutcome(undefined, "gone", "yes", undefined).outcome).toBeUndefined();
  });

  it("is matched from the router's output, with a warning when it is none of them", () => {
    expect(routedOutcome(router, "route", "  yes ", undefined)).toEqual({
      outcome: "yes",
      warnings: [],
    });
    const none = routedOutcome(router, "route", "maybe", undefined);
    expect(none.outcome).toBe("maybe");
    expect(none.warnings).toEqual([
      {
        type: "flow_warning",
        task_id: "route",
        data: {
          message:
            "router 'route' answered 'maybe', none of its outcomes (yes, no): no outcome's listener runs",
        },
      },
    ]);
  });
});

describe("an each's list and cursor", () => {
  it("takes an array within the bound, and names the method otherwise", () => {
    expect(eachItems("m", [1, 2])).toEqual([1, 2]);
    expect(() => eachItems("m", { a: 1 })).toThrow("method 'm': each.in must evaluate to an array");
    expect(() => eachItems("m", Array.from({ length: 10_001 }))).toThrow(FlowStepError);
    expect(eachItems("m", Array.from({ length: 10_000 }))).toHaveLength(10_000);
  });

  it("starts at the first item, or where the flow let go, with its own copy of the outputs", () => {
    expect(cursorOf({})).toEqual({ index: 0, step: 0, local: {}, last: null });
    const each = { index: 3, step: 1, local: { a: 1 }, last: "x", items: [1] };
    const at = cursorOf({ each });
    expect(at).toEqual({ index: 3, step: 1, local: { a: 1 }, last: "x" });
    at.local.b = 2;
    expect(each.local).toEqual({ a: 1 });
  });
});
