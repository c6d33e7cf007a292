import { describe, expect, it } from "vitest";
import type { TaskDef } from "@/lib/crew/schema";
import { fireDue } from "@/lib/reviews/clock";
import { approve, sendBack } from "@/lib/reviews/decide";
import { openReview } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, Review } from "@/lib/run-model/types";
import { at, def, runAwaiting, state, T0, who } from "../support/review-rows";

// What a decision does to a run, decided on the row alone: a quorum counts approvals up to its
// number, the run goes on, completes or waits, a send-back makes the task run again, and the
// clock's send-back stops at the task's max_review_rounds.
describe("a review's decision", () => {
  it("under a quorum of two, records the first approval and approves on the second", () => {
    const defs = [def("a", { review: { required_approvals: 2 } } as Partial<TaskDef>), def("b")];
    const { row, open } = runAwaiting(defs, [
      state("a", "pending_human_input"),
      state("b", "pending"),
    ]);
    expect(open.required_approvals).toBe(2);
    const first = approve(row, open, who("ada"), { feedback: "fine" }, at(1));
    expect(first.effect).toBe("approval_recorded");
    expect(first.approvals).toBe(1);
    expect(first.change.patch?.status).toBeUndefined(); // still paused
    expect(first.change.patch?.open_reviews?.[0]?.approvals).toHaveLength(1);
    expect(first.change.events?.map((e) => [e.type, e.data?.effect])).toEqual([
      ["review_submitted", "approval_recorded"],
    ]);

    const once = first.change.patch?.open_reviews?.[0] as OpenReview;
    const second = approve(row, once, who("bob"), { feedback: "good" }, at(2));
    expect(second.effect).toBe("approved");
    expect(second.approvals).toBe(2);
    const patch = second.change.patch ?? {};
    expect(patch.status).toBe("running"); // task b can run
    expect(patch.current_task).toBeNull();
    expect(patch.open_reviews).toEqual([]);
    expect(patch.tasks?.[0]).toMatchObject({ status: "completed", output: "draft" });
    expect(patch.tasks?.[0]?.reviews?.[0]).toMatchObject({
      is_approve: true,
      approvers: ["ada", "bob"],
    });
    // The wait is counted once the last open review closes: two minutes on top of the 5 s.
    expect(patch.review_wait_seconds).toBe(125);
    expect(second.change.events?.map((e) => e.type)).toEqual([
      "review_submitted",
      "task_completed",
    ]);
  });

  it("the clock approves alone, whatever the quorum", () => {
    const defs = [def("a", { review: { required_approvals: 3 } } as Partial<TaskDef>)];
    const { row, open } = runAwaiting(defs, [state("a", "pending_human_input")]);
    const forced = approve(row, open, who("clock"), { feedback: "" }, at(1), { force: true });
    expect(forced.effect).toBe("approved");
  });

  it("approving the last task completes the run with its output as the result", () => {
    const defs = [def("a"), def("b")];
    const { row, open } = runAwaiting(defs, [
      state("a", "completed"),
      state("b", "pending_human_input"),
    ]);
    const { change, effect } = approve(row, open, who("ada"), { feedback: "ok" }, at(1));
    expect(effect).toBe("approved");
    expect(change.patch).toMatchObject({
      status: "completed",
      result: "draft",
      current_task: null,
      finished_at: at(1),
      lease_owner: null,
    });
    expect(change.events?.at(-1)?.type).toBe("execution_completed");
  });

  it("a send-back makes the task run again, whatever approvals it had", () => {
    const defs = [def("a", { review: { required_approvals: 2 } } as Partial<TaskDef>), def("b")];
    const { row, open } = runAwaiting(defs, [
      state("a", "pending_human_input"),
      state("b", "pending"),
    ]);
    const once = approve(row, open, who("ada"), { feedback: "fine" }, at(1)).change.patch
      ?.open_reviews?.[0] as OpenReview;
    const back = sendBack(row, once, who("bob"), { feedback: "redo" }, at(2));
    expect(back.patch?.status).toBe("running");
    expect(back.patch?.tasks?.[0]).toMatchObject({ status: "pending" });
    expect(back.patch?.tasks?.[0]?.reviews?.[0]).toMatchObject({
      is_approve: false,
      feedback: "redo",
    });
    expect(back.events?.[0]?.data).toMatchObject({
      effect: "sent_back",
      approvals: { count: 1, required: 2 },
    });
  });

  it("a run still waits while another task awaits review", () => {
    const defs = [def("a", { async_execution: true }), def("b", { async_execution: true })];
    const tasks = [state("a", "pending_human_input"), state("b", "pending_human_input")];
    const { row, open } = runAwaiting(defs, tasks);
    const other = { ...openReview(defs[1] as TaskDef, 1, "other", T0) };
    const both = { ...row, open_reviews: [open, other] } as ExecutionRow;
    const { change } = approve(both, open, who("ada"), { feedback: "ok" }, at(1));
    expect(change.patch?.status).toBeUndefined(); // pending_human_input, unchanged
    expect(change.patch?.current_task).toBe("a");
    expect(change.patch?.open_reviews?.map((r) => r.task_id)).toEqual(["b"]);
    expect(change.patch?.review_wait_seconds).toBe(5); // counted when the last one closes
  });
});

describe("the clock's send-back on a deadline", () => {
  const sentBack = (n: number): Review[] =>
    Array.from({ length: n }, (_, i) => ({
      attempt: i + 1,
      is_approve: false,
      feedback: "redo",
      output: "x",
      reviewer: "r",
      at: T0.toISOString(),
    }));
  const due = (rounds: number, max: number) => {
    const defs = [def("a", { max_review_rounds: max } as Partial<TaskDef>)];
    const { row } = runAwaiting(defs, [state("a", "pending_human_input", sentBack(rounds))], {
      deadline_at: T0.toISOString(),
      on_timeout: "send_back",
      escalate_to: ["admin"],
    });
    return fireDue(row, at(1));
  };

  it("sends back below max_review_rounds and escalates once they are used up", () => {
    expect(due(1, 2).events?.[0]?.data?.action).toBe("send_back");
    expect(due(2, 2).events?.[0]?.data?.action).toBe("escalate");
    expect(due(2, 2).events?.map((e) => e.type)).toEqual(["review_timed_out", "review_escalated"]);
  });
});
