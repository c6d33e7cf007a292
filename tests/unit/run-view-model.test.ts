import { describe, expect, it } from "vitest";
import {
  comparedTasks,
  flowWaitingOn,
  forkFrom,
  reviewEventCount,
} from "@/components/run/run-view-model";
import type { Trace, TraceAttempt, TraceTask } from "@/components/run/trace-types";
import type { ExecutionEvent } from "@/lib/contract/status";

// The run page's decisions before it draws: what to compare, poll, count and offer to fork.
const attempt = (n: number, output: string | null, edit?: TraceAttempt["edit"]): TraceAttempt => ({
  attempt: n,
  start: 0,
  end: null,
  steps: [],
  output,
  review: null,
  format: "text",
  ...(edit ? { edit } : {}),
});
const task = (taskId: string, attempts: TraceAttempt[]): TraceTask => ({
  taskId,
  name: taskId,
  agent: "a",
  status: "completed",
  start: null,
  end: null,
  attempts,
  retries: 0,
});

describe("the run page's model", () => {
  it("compares tasks done twice with output, or approved with an edit", () => {
    const trace: Trace = {
      start: 0,
      end: null,
      loose: [],
      artifacts: [],
      tasks: [
        task("once", [attempt(1, "x")]),
        task("twice", [attempt(1, "x"), attempt(2, "y")]),
        task("retried-without-output", [attempt(1, null), attempt(2, "y")]),
        task("edited", [attempt(1, "x", { output: "z", reviewer: "r" })]),
      ],
    };
    expect(comparedTasks(trace).map((t) => t.taskId)).toEqual(["twice", "edited"]);
  });

  it("counts review events only", () => {
    const ev = (type: string): ExecutionEvent => ({
      type,
      seq: 0,
      task_id: null,
      attempt: null,
      data: {},
      created_at: "",
    });
    const events = ["review_requested", "task_started", "review_submitted"].map(ev);
    expect(reviewEventCount(events)).toBe(2);
  });

  it("polls the nested run only while the flow is active", () => {
    const status = { flow: { current: { nested_run: "r2" } } };
    expect(flowWaitingOn(status, true)).toBe("r2");
    expect(flowWaitingOn(status, false)).toBeNull();
    expect(flowWaitingOn(undefined, true)).toBeNull();
  });

  it("offers a fork to who may start runs, never on a deployment", () => {
    const status = { flow: { path: [{ method: "a" }, { method: "b" }] } };
    expect(forkFrom(true, "news", "r1", status)).toEqual({
      crew: "news",
      runId: "r1",
      path: ["a", "b"],
    });
    expect(forkFrom(false, "news", "r1", status)).toBeUndefined();
    expect(forkFrom(true, "@remote", "r1", status)).toBeUndefined();
  });
});
