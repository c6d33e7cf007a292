import { describe, expect, it } from "vitest";
import type { TaskDef } from "@/lib/crew/schema";
import { fireDue } from "@/lib/reviews/clock";
import { openReview } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, Review } from "@/lib/run-model/types";
import { at, def, runAwaiting, state, T0 } from "../support/review-rows";

// What the review clock does to a run when a reminder or a deadline comes due, on the row alone:
// each on_timeout action, at the very moment of the deadline, to the review it concerns only.
const iso = (minutes: number) => at(minutes).toISOString();
const sentBack: Review = {
  attempt: 1,
  is_approve: false,
  feedback: "redo",
  output: "x",
  reviewer: "r",
  at: T0.toISOString(),
};

/** Task `a` (after a completed task `x` when `second`) awaiting review, due at minute 1. */
function due(
  review: Partial<OpenReview>,
  { max, rounds = 0, second = false }: { max?: number; rounds?: number; second?: boolean } = {},
) {
  const a = def("a", max ? ({ max_review_rounds: max } as Partial<TaskDef>) : {});
  const defs = second ? [def("x"), a, def("b")] : [a, def("b")];
  const waiting = state("a", "pending_human_input", Array(rounds).fill(sentBack));
  const tasks = second
    ? [state("x", "completed"), waiting, state("b", "pending")]
    : [waiting, state("b", "pending")];
  return runAwaiting(defs, tasks, {
    deadline_at: iso(1),
    escalate_to: ["admin"],
    assignees: ["ada@example.com"],
    ...review,
  });
}
const types = (change: ReturnType<typeof fireDue>) => change.events?.map((e) => e.type);

describe("a review's deadline", () => {
  it("passes at its very moment, not a minute later", () => {
    const { row } = due({ on_timeout: "approve" });
    expect(types(fireDue(row, at(1)))?.[0]).toBe("review_timed_out");
    expect(fireDue(row, new Date(at(1).getTime() - 1)).events).toBeUndefined();
  });

  it("approves, sends back, stops or escalates, as on_timeout says", () => {
    const fire = (on_timeout: OpenReview["on_timeout"]) => fireDue(due({ on_timeout }).row, at(2));
    const approved = fire("approve");
    expect(types(approved)).toEqual(["review_timed_out", "review_submitted", "task_completed"]);
    expect(approved.patch?.tasks?.[0]?.status).toBe("completed");
    const back = fire("send_back");
    expect(back.patch?.tasks?.[0]?.status).toBe("pending");
    expect(back.patch?.tasks?.[0]?.reviews?.[0]?.feedback).toMatch(/^No reviewer decided before/);
    const stop = fire("stop");
    expect(stop.patch?.status).toBe("cancelled");
    expect(types(stop)).toEqual(["review_timed_out", "execution_cancelled"]);
    const up = fire("escalate");
    expect(up.events?.[1]).toMatchObject({
      type: "review_escalated",
      data: { by: "system", from: ["ada@example.com"], to: ["admin"] },
    });
    expect(up.patch?.open_reviews?.[0]).toMatchObject({ assignees: ["admin"], deadline_at: null });
  });

  it("approves even when the send-backs are used up (only a send-back escalates then)", () => {
    const { row } = due({ on_timeout: "approve" }, { max: 1, rounds: 1 });
    expect(fireDue(row, at(2)).patch?.tasks?.[0]?.status).toBe("completed");
  });

  it("counts the send-backs of its own task, wherever it stands in the crew", () => {
    const { row } = due({ on_timeout: "send_back" }, { max: 1, rounds: 1, second: true });
    expect(fireDue(row, at(2)).events?.[0]?.data?.action).toBe("escalate");
  });

  it("decides tool calls awaiting approval as calls: run them, or refuse them", () => {
    const call = { call_id: "c1", tool: "search", arguments: {}, input_schema: {} };
    const fire = (on_timeout: OpenReview["on_timeout"]) =>
      fireDue(due({ on_timeout, tool_calls: [call] }).row, at(2)).events?.[1]?.data;
    expect(fire("approve")).toMatchObject({ kind: "tool_call", call_id: "c1", effect: "approved" });
    expect(fire("send_back")).toMatchObject({ kind: "tool_call", effect: "refused" });
  });

  it("escalating one review leaves the other open review as it was", () => {
    const defs = [def("a", { async_execution: true }), def("b", { async_execution: true })];
    const { row, open } = runAwaiting(
      defs,
      [state("a", "pending_human_input"), state("b", "pending_human_input")],
      { deadline_at: iso(1), on_timeout: "escalate", escalate_to: ["admin"] },
    );
    const other = openReview(defs[1] as TaskDef, 1, "other", T0);
    const both = { ...row, open_reviews: [open, other] } as ExecutionRow;
    const reviews = fireDue(both, at(2)).patch?.open_reviews ?? [];
    expect(reviews.map((r) => [r.task_id, r.assignees])).toEqual([
      ["a", ["admin"]],
      ["b", []],
    ]);
  });
});

describe("a review's reminders", () => {
  const reminding = () =>
    due({ deadline_at: iso(60 * 24), on_timeout: "escalate", reminders_at: [iso(1), iso(10)] });

  it("remind the assignees once, with the deadline, and wait for the next", () => {
    const change = fireDue(reminding().row, at(2));
    expect(change.events).toEqual([
      {
        type: "review_reminded",
        task_id: "a",
        attempt: 1,
        data: { assignees: ["ada@example.com"], deadline_at: iso(60 * 24) },
      },
    ]);
    expect(change.patch?.open_reviews?.[0]?.reminders_at).toEqual([iso(10)]);
    expect(change.patch?.review_due_at).toEqual(at(10));
  });

  it("none due: the next due time is what the row is given again", () => {
    const { row, open } = reminding();
    const already = { ...row, open_reviews: [{ ...open, reminders_at: [iso(10)] }] };
    const change = fireDue(already as ExecutionRow, at(2));
    expect(change.events ?? []).toEqual([]);
    expect(change.patch?.review_due_at).toEqual(at(10));
  });
});
