import { describe, expect, it } from "vitest";
import { inboxHref, nextAfter, selectedReview, withDecision } from "@/components/inbox/inbox-model";

// The inbox's choices: which review is open, the link to one, the notice list and where the
// queue goes after a decision.
const a = { execution_id: "r1", task_id: "t1" };
const b1 = { execution_id: "r2", task_id: "t1" };
const b2 = { execution_id: "r2", task_id: "t2" };
const queue = [a, b1, b2];

describe("selectedReview", () => {
  it("opens the longest waiting when none is asked for", () => {
    expect(selectedReview(queue, null, null)).toBe(a);
    expect(selectedReview([], null, null)).toBeNull();
  });
  it("opens the asked run's task, or its first, and nothing when it is gone", () => {
    expect(selectedReview(queue, "r2", "t2")).toBe(b2);
    expect(selectedReview(queue, "r2", null)).toBe(b1);
    expect(selectedReview(queue, "gone", null)).toBeNull();
  });
});

describe("inboxHref", () => {
  it("names the scope only when it is not the default, and the task only when needed", () => {
    expect(inboxHref(queue, null, "mine", "mine")).toBe("/inbox");
    expect(inboxHref(queue, a, "all", "mine")).toBe("/inbox?scope=all&run=r1");
    expect(inboxHref(queue, b2, "mine", "mine")).toBe("/inbox?run=r2&task=t2");
  });
});

describe("after a decision", () => {
  it("replaces an earlier notice about the same run", () => {
    const d = (runId: string, message: string) => ({
      runId,
      crew: "c",
      taskId: "t",
      attempt: 1,
      message,
    });
    expect(withDecision([d("r1", "old"), d("r2", "x")], d("r1", "new"))).toEqual([
      d("r2", "x"),
      d("r1", "new"),
    ]);
  });
  it("moves to the next review, or the one before at the end", () => {
    expect(nextAfter(queue, a)).toBe(b1);
    expect(nextAfter(queue, b2)).toBe(b1);
    expect(nextAfter([a], a)).toBeUndefined();
  });
});
