import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { ResumeRequest } from "@/lib/contract/crew";
import type { Db } from "@/lib/db/types";
import { embeddedDbForFile } from "../support/embedded-db";
import {
  addPeople,
  as,
  awaitingReview,
  org,
  PEOPLE,
  refused,
  rowOf,
  sentBack,
} from "../support/review-run";

// A reviewer's decision through resumeExecution, on the real embedded database: which review it
// decides, what it answers, what a quorum, a response form, an edit and max_review_rounds do.
let db: Db;
let resume: typeof import("@/lib/reviews/resume-execution");

const embedded = embeddedDbForFile("review-resume", {
  WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
});

beforeAll(async () => {
  db = embedded.db;
  resume = await import("@/lib/reviews/resume-execution");
  await addPeople(db);
});

const BRAND = { inputs: { brand: "Tide" } };
type Ask = Partial<ResumeRequest> & { task_id: string };
const decide = (crew: string, id: string, principal: Principal, ask: Ask) =>
  resume.resumeExecution({
    db,
    crew,
    principal,
    request: { execution_id: id, human_feedback: "ok", is_approve: true, ...ask },
  });
const task = async (id: string, taskId: string) =>
  (await rowOf(db, id)).tasks.find((t) => t.task_id === taskId);

describe("a decision's request", () => {
  it("takes edits only with an approval, and tool-call fields only for a tool-call review", async () => {
    const id = await awaitingReview(db, "review");
    const ask = (extra: Partial<ResumeRequest>) =>
      refused(decide("review", id, org, { task_id: "draft", ...extra }), 400);
    expect((await ask({ is_approve: false, edited_output: "x" })).details).toEqual({
      errors: [{ path: "edited_output", message: "only with is_approve: true" }],
    });
    expect((await ask({ is_approve: false, edited_arguments: { q: 1 } })).details).toEqual({
      errors: [{ path: "edited_arguments", message: "only with is_approve: true" }],
    });
    expect((await ask({ call_id: "c1" })).details).toEqual({
      errors: [{ path: "call_id", message: "no tool call awaits review" }],
    });
    expect((await ask({ edited_arguments: { q: 1 } })).details).toEqual({
      errors: [{ path: "edited_arguments", message: "no tool call awaits review" }],
    });
    expect((await task(id, "draft"))?.status).toBe("pending_human_input");
  });

  it("a review of tool calls takes no edited output", async () => {
    const call = { call_id: "c1", tool: "search", arguments: {}, input_schema: {} };
    const id = await awaitingReview(db, "review", { review: { tool_calls: [call] } });
    const err = await refused(
      decide("review", id, org, { task_id: "draft", edited_output: "x" }),
      400,
    );
    expect(err.details).toEqual({
      errors: [{ path: "edited_output", message: "no output awaits review" }],
    });
  });

  it("an unknown task is not found; a task not awaiting review is a 400", async () => {
    const id = await awaitingReview(db, "review");
    const unknown = await refused(decide("review", id, org, { task_id: "nope" }), 404);
    expect(unknown.message).toMatch(/\(its tasks: draft, polish\)/);
    const err = await refused(decide("review", id, org, { task_id: "polish" }), 400);
    expect(err.code).toBe("not-awaiting-review");
  });
});

describe("what a decision decides and answers", () => {
  it("decides the review of the task it names, and says another still waits", async () => {
    const id = await awaitingReview(db, "parallel-review", { open: ["headline", "teaser"] });
    const result = await decide("parallel-review", id, org, { task_id: "teaser" });
    expect(result.status).toBe("waiting");
    expect(result.message).toMatch(/still awaits 1 other review/);
    expect((await task(id, "teaser"))?.status).toBe("completed");
    expect((await task(id, "headline"))?.status).toBe("pending_human_input");
    expect((await rowOf(db, id)).open_reviews.map((r) => r.task_id)).toEqual(["headline"]);
    // The later decision is the one a repeat is compared with, whatever the tasks' order.
    await decide("parallel-review", id, org, { task_id: "headline" });
    expect((await decide("parallel-review", id, org, { task_id: "headline" })).message).toMatch(
      /^Already applied/,
    );
  });

  it("a quorum counts distinct people, with their answers; the same person twice once", async () => {
    const id = await awaitingReview(db, "quorum-review");
    const approve = (p: keyof typeof PEOPLE, extra: Partial<ResumeRequest> = {}) =>
      decide("quorum-review", id, as(PEOPLE[p]), {
        task_id: "draft",
        review_response: { rating: 4 },
        ...extra,
      });
    expect(await approve("ada")).toEqual({
      status: "approval_recorded",
      message: "Approval 1 of 3 recorded for task 'draft'; 2 more needed.",
      approvals: { count: 1, required: 3 },
    });
    const approvals = async () => (await rowOf(db, id)).open_reviews[0]?.approvals ?? [];
    expect(await approvals()).toMatchObject([
      { reviewer: "ada@example.com", user_id: PEOPLE.ada.id, response: { rating: 4 } },
    ]);
    const again = await approve("ada", { human_feedback: "still ok" });
    expect(again.status).toBe("approval_recorded");
    expect(again.approvals).toEqual({ count: 1, required: 3 });
    // Having approved, Ada's edit waits for someone else's decision.
    await refused(approve("ada", { edited_output: "changed" }), 409);
    // The text under review, submitted unchanged as an edit, is a plain approval.
    const same = await approve("bob", { edited_output: "draft draft" });
    expect(same.approvals).toEqual({ count: 2, required: 3 });
    const last = await approve("carol");
    expect(last).toEqual({
      status: "resumed",
      message: "Task 'draft' approved; the execution continues.",
      approvals: { count: 3, required: 3 },
    });
    expect((await task(id, "draft"))?.reviews?.[0]?.approvers).toHaveLength(3);
  });

  it("a task's response form must be filled in and fit", async () => {
    const id = await awaitingReview(db, "quorum-review");
    const ask = (review_response?: Record<string, unknown>) =>
      decide("quorum-review", id, org, { task_id: "draft", review_response });
    const missing = await refused(ask(), 422);
    expect(missing.details).toMatchObject({
      errors: [{ path: "review_response", message: "required" }],
    });
    const unfit = await refused(ask({ rating: 9 }), 422);
    expect(unfit.details).toEqual({
      errors: [{ path: "review_response", message: expect.stringMatching(/rating/) }],
    });
    // The form is the approver's: a send-back needs only its feedback.
    const back = await decide("quorum-review", id, org, {
      task_id: "draft",
      is_approve: false,
      human_feedback: "Shorter.",
    });
    expect(back.status).toBe("retrying");
  });

  it("two organization tokens are two approvals", async () => {
    const id = await awaitingReview(db, "pair-review");
    const ask = (tokenId: string | null) =>
      decide(
        "pair-review",
        id,
        { kind: "org", tokenId },
        {
          task_id: "email",
          review_response: { rating: 5 },
        },
      );
    expect((await ask(null)).approvals).toEqual({ count: 1, required: 2 });
    expect((await ask("t2")).status).toBe("completed");
  });

  it("an edit that differs is approved in place of the output, for the crew's next task", async () => {
    const id = await awaitingReview(db, "review");
    const result = await decide("review", id, as(PEOPLE.ada), {
      task_id: "draft",
      edited_output: "mine",
      taskWebhookUrl: "http://127.0.0.1:9/task",
    });
    expect(result).toEqual({
      status: "resumed",
      message: "Task 'draft' approved; the execution continues.",
    });
    const draft = await task(id, "draft");
    expect(draft?.output).toBe("mine");
    expect(draft?.reviews?.[0]).toMatchObject({
      reviewer: "ada@example.com",
      edited_output: "mine",
      feedback: "ok",
    });
    expect((await rowOf(db, id)).webhooks).toMatchObject({ task: "http://127.0.0.1:9/task" });
  });

  it("approving the last task completes the run; the same approval again is answered alike", async () => {
    const id = await awaitingReview(db, "bounded-review", BRAND);
    const ask = () => decide("bounded-review", id, org, { task_id: "slogan" });
    const first = await ask();
    expect(first).toEqual({
      status: "completed",
      message: "Task 'slogan' approved; the execution is complete.",
    });
    expect((await ask()).status).toBe("completed");
    expect((await rowOf(db, id)).status).toBe("completed");
    // After send-backs too: the repeat is compared with the last decision, not an earlier one.
    const third = await awaitingReview(db, "bounded-review", {
      ...BRAND,
      reviews: [sentBack(1), sentBack(2)],
    });
    await decide("bounded-review", third, org, { task_id: "slogan" });
    expect(await decide("bounded-review", third, org, { task_id: "slogan" })).toEqual({
      status: "completed",
      message: "Already applied: task 'slogan' was approved; the execution is complete.",
    });
  });
});

describe("sending back", () => {
  const back = (crew: string, id: string, taskId: string) =>
    decide(crew, id, org, { task_id: taskId, is_approve: false, human_feedback: "shorter" });

  it("runs the task again, until its max_review_rounds are used up", async () => {
    const first = await awaitingReview(db, "bounded-review", BRAND);
    expect(await back("bounded-review", first, "slogan")).toEqual({
      status: "retrying",
      message: "Task 'slogan' will run again (attempt 2) with your feedback.",
    });
    const used = await awaitingReview(db, "bounded-review", { ...BRAND, reviews: [sentBack(1)] });
    const err = await refused(back("bounded-review", used, "slogan"), 409);
    expect(err.details).toEqual({ max_review_rounds: 1 });
  });

  it("counts the rounds of the task it names, which may have no decisions yet", async () => {
    // `redo` is the fourth task of deadline-review, the only one with max_review_rounds.
    const used = await awaitingReview(db, "deadline-review", {
      open: ["redo"],
      reviews: [sentBack(1)],
    });
    await refused(back("deadline-review", used, "redo"), 409);
    const fresh = await awaitingReview(db, "bounded-review", BRAND);
    const { mutateExecution } = await import("@/lib/runs/execution-store");
    await db.tx((q) =>
      mutateExecution(q, { id: fresh }, (r) => ({
        patch: { tasks: r.tasks.map(({ reviews: _, ...t }) => t) },
      })),
    );
    expect((await back("bounded-review", fresh, "slogan")).status).toBe("retrying");
  });
});

describe("a claimed review", () => {
  it("is decided by no one else, each told how to go on; the unassigned are told who is", async () => {
    const id = await awaitingReview(db, "assigned-review");
    const { actOnReview } = await import("@/lib/reviews/claims");
    const claim = await actOnReview({
      db,
      crew: "assigned-review",
      id,
      taskId: "clause",
      principal: as(PEOPLE.ada),
      request: { action: "claim" },
    });
    const ask = (p: Principal) => decide("assigned-review", id, p, { task_id: "clause" });
    const held = { claimed_by: "ada@example.com", claimed_until: claim?.claimed_until };
    const carol = await refused(ask(as(PEOPLE.carol)), 409);
    expect(carol.message).toMatch(/wait for them to release it/);
    expect(carol.details).toEqual(held);
    expect((await refused(ask(org), 409)).message).toMatch(/release the claim first/);
    expect((await refused(ask(as(PEOPLE.dan)), 409)).message).toMatch(/release the claim first/);
    const bob = await refused(ask(as(PEOPLE.bob)), 403);
    expect(bob.details).toEqual({ assignees: ["ada@example.com", "legal"] });
  });
});
