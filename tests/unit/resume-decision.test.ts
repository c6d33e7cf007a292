import { describe, expect, it } from "vitest";
import type { ResumeRequest } from "@/lib/contract/crew";
import type { TaskDef } from "@/lib/crew/schema";
import type { Person } from "@/lib/reviews/assignment";
import {
  approvalResult,
  decideResume,
  refuseEditsWithoutApproval,
  reviewToDecide,
} from "@/lib/reviews/resume-decision";
import type { OpenReview } from "@/lib/run-model/review-types";
import { at, def, runAwaiting, state, who } from "../support/review-rows";

// A reviewer's decision on the locked row, without a database: who may decide, what the run
// does next and what the API answers.

const request = (extra: Partial<ResumeRequest> = {}): ResumeRequest => ({
  execution_id: "00000000-0000-4000-8000-000000000001",
  task_id: "a",
  human_feedback: "ok",
  is_approve: true,
  ...extra,
});
const org = { who: who("org"), person: null };
const ada: Person = { user_id: "ada", email: "ada@x", role: "reviewer", teams: [] };

/** Task a awaits review of "draft"; task b comes after it unless `last`. */
function awaiting(
  { last = false, task = {}, review = {} } = {} as {
    last?: boolean;
    task?: Partial<TaskDef>;
    review?: Partial<OpenReview>;
  },
) {
  const defs = [def("a", task), ...(last ? [] : [def("b")])];
  const tasks = [state("a", "pending_human_input"), ...(last ? [] : [state("b", "pending")])];
  return runAwaiting(defs, tasks, review);
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("not refused");
};

describe("edits come with approvals only", () => {
  it("refuses edited arguments or output on a refusal", () => {
    expect(
      refusal(() =>
        refuseEditsWithoutApproval(request({ is_approve: false, edited_arguments: {} })),
      ),
    ).toMatchObject({
      status: 400,
      message: expect.stringContaining("edited_arguments come with an approval"),
    });
    expect(
      refusal(() => refuseEditsWithoutApproval(request({ is_approve: false, edited_output: "x" }))),
    ).toMatchObject({
      status: 400,
      message: expect.stringContaining("edited_output comes with an approval"),
    });
    expect(() => refuseEditsWithoutApproval(request({ edited_output: "x" }))).not.toThrow();
  });
});

describe("the review a decision is for", () => {
  it("is the open one of a task the run has", () => {
    const { row } = awaiting();
    expect(reviewToDecide(row, request(), null, at(1))).toMatchObject({
      index: 0,
      review: { task_id: "a" },
    });
    expect(
      refusal(() => reviewToDecide(row, request({ task_id: "zz" }), null, at(1))),
    ).toMatchObject({
      status: 404,
      message: "Execution e has no task 'zz' (its tasks: a, b).",
    });
    expect(
      refusal(() => reviewToDecide(row, request({ task_id: "b" }), null, at(1))),
    ).toMatchObject({
      status: 400,
      message: "Task 'b' is not awaiting review; 'a' is.",
    });
  });

  it("takes no tool call's fields when an output awaits review", () => {
    const { row } = awaiting();
    expect(
      refusal(() => reviewToDecide(row, request({ call_id: "c" }), null, at(1))),
    ).toMatchObject({
      status: 400,
      message: expect.stringContaining("awaits review of its output, not of a tool call"),
    });
  });

  it("is decided only by its assignees, an administrator or the organization", () => {
    const { row } = awaiting({ review: { assignees: ["team:legal"] } });
    expect(refusal(() => reviewToDecide(row, request(), ada, at(1)))).toMatchObject({
      status: 403,
      details: { assignees: ["team:legal"] },
    });
    expect(() => reviewToDecide(row, request(), { ...ada, role: "admin" }, at(1))).not.toThrow();
    expect(() => reviewToDecide(row, request(), null, at(1))).not.toThrow();
  });

  it("waits for someone else's claim while it holds, and tells an admin how to override", () => {
    const claim = { by: "Bob", user_id: "bob", until: at(10).toISOString() };
    const { row } = awaiting({ review: { claim } });
    const person = refusal(() => reviewToDecide(row, request(), ada, at(1)));
    expect(person).toMatchObject({
      status: 409,
      message: expect.stringContaining("wait for them to release it"),
      details: { claimed_by: "Bob", claimed_until: claim.until },
    });
    expect(refusal(() => reviewToDecide(row, request(), null, at(1)))).toMatchObject({
      status: 409,
      message: expect.stringContaining('{"action":"release"}'),
    });
    expect(() => reviewToDecide(row, request(), { ...ada, user_id: "bob" }, at(1))).not.toThrow();
    expect(() => reviewToDecide(row, request(), ada, at(11))).not.toThrow(); // expired
  });
});

describe("sending a task back", () => {
  it("runs the task again, as the next attempt", () => {
    const { row } = awaiting();
    const { change, result } = decideResume(row, request({ is_approve: false }), org, at(1));
    expect(result).toEqual({
      status: "retrying",
      message: "Task 'a' will run again (attempt 2) with your feedback.",
    });
    expect(change.patch?.tasks?.[0]?.status).not.toBe("completed");
  });

  it("stops at the task's max_review_rounds", () => {
    const { row } = awaiting({ task: { max_review_rounds: 1 } });
    const sentOnce = {
      ...row,
      tasks: [
        state("a", "pending_human_input", [
          {
            attempt: 1,
            is_approve: false,
            feedback: "x",
            output: "d",
            reviewer: "r",
            at: at(0).toISOString(),
          },
        ]),
        state("b", "pending"),
      ],
    };
    expect(
      refusal(() => decideResume(sentOnce, request({ is_approve: false }), org, at(1))),
    ).toMatchObject({
      status: 409,
      details: { max_review_rounds: 1 },
    });
  });
});

describe("approving a task", () => {
  it("lets the run go on, or completes it on the last task", () => {
    expect(decideResume(awaiting().row, request(), org, at(1)).result).toEqual({
      status: "resumed",
      message: "Task 'a' approved; the execution continues.",
    });
    expect(decideResume(awaiting({ last: true }).row, request(), org, at(1)).result).toEqual({
      status: "completed",
      message: "Task 'a' approved; the execution is complete.",
    });
  });

  it("under a quorum, counts the approval; the same person again is answered as recorded", () => {
    const quorum = { review: { required_approvals: 2 } } as Partial<TaskDef>;
    const { row } = awaiting({ task: quorum, review: { required_approvals: 2 } });
    const first = decideResume(row, request(), { who: who("ada"), person: null }, at(1));
    expect(first.result).toEqual({
      status: "approval_recorded",
      message: "Approval 1 of 2 recorded for task 'a'; 1 more needed.",
      approvals: { count: 1, required: 2 },
    });
    const once = { ...row, open_reviews: first.change.patch?.open_reviews ?? [] };
    const again = decideResume(once, request(), { who: who("ada"), person: null }, at(2));
    expect(again).toEqual({
      change: {},
      result: {
        status: "approval_recorded",
        message: "Already recorded: your approval of task 'a' (1 of 2).",
        approvals: { count: 1, required: 2 },
      },
    });
    expect(
      refusal(() =>
        decideResume(
          once,
          request({ edited_output: "new" }),
          { who: who("ada"), person: null },
          at(2),
        ),
      ),
    ).toMatchObject({ status: 409 });
    // The text under review, sent back unchanged, is no edit.
    expect(() =>
      decideResume(
        once,
        request({ edited_output: "draft" }),
        { who: who("ada"), person: null },
        at(2),
      ),
    ).not.toThrow();
  });
});

describe("what an approval answers", () => {
  const review = { task_id: "a", required_approvals: 2 };
  it("says how many reviews the run still awaits, with the quorum's tally", () => {
    const { row, open } = awaiting();
    const others = [{ ...open, task_id: "b" }];
    const change = { patch: { status: "pending_human_input" as const, open_reviews: others } };
    expect(approvalResult(row, review, change, "approved", 2)).toEqual({
      status: "waiting",
      message: "Task 'a' approved; the execution still awaits 1 other review(s).",
      approvals: { count: 2, required: 2 },
    });
  });

  it("keeps the run's status when the change leaves it", () => {
    const { row } = awaiting();
    expect(
      approvalResult(
        { ...row, status: "running" },
        { ...review, required_approvals: 1 },
        {},
        "approved",
        1,
      ),
    ).toEqual({
      status: "resumed",
      message: "Task 'a' approved; the execution continues.",
    });
  });
});
