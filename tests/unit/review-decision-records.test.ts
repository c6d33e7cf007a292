import { describe, expect, it } from "vitest";
import type { TaskDef } from "@/lib/crew/schema";
import { approve, sendBack } from "@/lib/reviews/decide";
import { openReview } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { at, def, runAwaiting, state, T0, who } from "../support/review-rows";

// What a decision writes down, decided on the row alone: the approved text (an edit, with its
// diff and file), the approvals and answers behind it, the tasks and reviews it leaves alone.
const quorum = (n: number, extra: Partial<TaskDef> = {}) =>
  def("a", { review: { required_approvals: n }, ...extra } as Partial<TaskDef>);
const patchOf = (r: { change: { patch?: Partial<ExecutionRow> } }) => r.change.patch ?? {};

describe("what an approval records", () => {
  it("an edit becomes the task's output and file, with its diff in the decision and the log", () => {
    const { row, open } = runAwaiting(
      [def("a", { output_file: "a.md" } as Partial<TaskDef>)],
      [state("a", "pending_human_input")],
    );
    const done = approve(row, open, who("ada"), { feedback: "t", edited_output: "better" }, at(1));
    const task = patchOf(done).tasks?.[0];
    expect(task?.output).toBe("better");
    const record = task?.reviews?.[0];
    expect(record).toMatchObject({ output: "draft", edited_output: "better" });
    expect(record?.diff).toContain("+better");
    expect(record).not.toHaveProperty("approvers");
    const [submitted, completed, finished] = done.change.events ?? [];
    expect(submitted?.data).toMatchObject({
      decision: "approve",
      effect: "approved",
      approvals: { count: 1, required: 1 },
      edited: true,
      edited_output: "better",
    });
    expect(completed?.data).toEqual({
      agent: "a",
      name: "A",
      output: "better",
      reviewed: true,
      edited: true,
    });
    expect(finished?.data).toEqual({ result: "better", token_usage: row.token_usage });
    expect(done.change.artifacts?.map((a) => [a.task_id, a.body])).toEqual([["a", "better"]]);
  });

  it("an approval as it stands records no edit, no diff and no file", () => {
    const { row, open } = runAwaiting(
      [def("a", { output_file: "a.md" } as Partial<TaskDef>), def("b")],
      [state("a", "pending_human_input"), state("b", "pending")],
    );
    const done = approve(row, open, who("ada"), { feedback: "ok" }, at(1));
    expect(patchOf(done).tasks?.[0]?.reviews).toEqual([
      {
        attempt: 1,
        is_approve: true,
        feedback: "ok",
        output: "draft",
        reviewer: "ada",
        at: at(1).toISOString(),
      },
    ]);
    expect(done.change.events?.[1]?.data).toEqual({
      agent: "a",
      name: "A",
      output: "draft",
      reviewed: true,
    });
    expect(done.change.artifacts).toEqual([]);
  });

  it("under a quorum, an edit restarts the count; the last approval keeps the edit", () => {
    const { row, open } = runAwaiting(
      [quorum(2, { output_file: "a.md" } as Partial<TaskDef>)],
      [state("a", "pending_human_input")],
    );
    const plain = approve(row, open, who("ada"), { feedback: "ok" }, at(1));
    const afterPlain = patchOf(plain).open_reviews?.[0] as OpenReview;
    // Bob's edit: Ada approved other words, so only Bob's approval counts.
    const edited = approve(
      row,
      afterPlain,
      who("bob"),
      { feedback: "e", edited_output: "v2" },
      at(2),
    );
    expect(edited.effect).toBe("approval_recorded");
    expect(edited.approvals).toBe(1);
    const review = patchOf(edited).open_reviews?.[0] as OpenReview;
    expect(review.output).toBe("v2");
    expect(review.approvals.map((a) => [a.reviewer, a.edited])).toEqual([["bob", true]]);
    expect(edited.change.events?.[0]?.data).toMatchObject({ edited: true, edited_output: "v2" });

    const last = approve(row, review, who("carl"), { feedback: "fine" }, at(3));
    expect(last.effect).toBe("approved");
    const record = patchOf(last).tasks?.[0]?.reviews?.[0];
    expect(record).toMatchObject({ edited_output: "v2", approvers: ["bob", "carl"] });
    expect(record?.diff).toContain("+v2");
    expect(last.change.events?.[1]?.data).toMatchObject({ output: "v2", edited: true });
    expect(last.change.artifacts?.map((a) => a.body)).toEqual(["v2"]);
  });

  it("the reviewer's answers go with each approval, the decision and the log", () => {
    const { row, open } = runAwaiting([quorum(2)], [state("a", "pending_human_input")]);
    const response = { rating: 4 };
    const first = approve(row, open, who("ada"), { feedback: "ok", response }, at(1));
    const once = patchOf(first).open_reviews?.[0] as OpenReview;
    expect(once.approvals[0]?.response).toEqual(response);
    expect(first.change.events?.[0]?.data?.response).toEqual(response);
    const second = approve(row, once, who("bob"), { feedback: "ok", response }, at(2));
    expect(patchOf(second).tasks?.[0]?.reviews?.[0]?.response).toEqual(response);
    const back = sendBack(row, open, who("bob"), { feedback: "no", response }, at(2));
    expect(back.patch?.tasks?.[0]?.reviews?.[0]?.response).toEqual(response);
    expect(back.events?.[0]?.data?.response).toEqual(response);
  });

  it("deciding a task the run does not have is refused", () => {
    const { row, open } = runAwaiting([def("a")], [state("a", "pending_human_input")]);
    const stray = { ...open, task_id: "zz" };
    expect(() => approve(row, stray, who("ada"), { feedback: "" }, at(1))).toThrow(
      /task zz is not part of execution e/,
    );
  });
});

describe("what a decision leaves alone", () => {
  /** Tasks x (done), a and b (side by side, both awaiting review); a's state has no reviews yet. */
  function twoOpen() {
    const defs = [
      def("x"),
      def("a", { async_execution: true }),
      def("b", { async_execution: true }),
    ];
    const a = { ...state("a", "pending_human_input") };
    delete a.reviews;
    const { row, open } = runAwaiting(defs, [
      state("x", "completed"),
      a,
      state("b", "pending_human_input"),
    ]);
    const other = openReview(defs[2] as TaskDef, 1, "other", T0);
    return { row: { ...row, open_reviews: [open, other] } as ExecutionRow, open };
  }

  it("a send-back resets only its own task and closes only its own review", () => {
    const { row, open } = twoOpen();
    const back = sendBack(row, open, who("ada"), { feedback: "redo" }, at(1));
    const tasks = back.patch?.tasks ?? [];
    expect(tasks.map((t) => t.status)).toEqual(["completed", "pending", "pending_human_input"]);
    expect(tasks[1]?.reviews?.map((r) => r.feedback)).toEqual(["redo"]);
    expect(back.patch?.open_reviews?.map((r) => r.task_id)).toEqual(["b"]);
  });

  it("an approval adds the first decision to a task that had none", () => {
    const { row, open } = twoOpen();
    const done = approve(row, open, who("ada"), { feedback: "ok" }, at(1));
    expect(patchOf(done).tasks?.[1]?.reviews?.map((r) => r.feedback)).toEqual(["ok"]);
  });

  it("a task still running keeps the run running and its current task", () => {
    const defs = [def("a", { async_execution: true }), def("b", { async_execution: true })];
    const { row, open } = runAwaiting(defs, [
      state("a", "pending_human_input"),
      state("b", "running"),
    ]);
    const running = { ...row, status: "running", current_task: "b" } as ExecutionRow;
    const patch = patchOf(approve(running, open, who("ada"), { feedback: "ok" }, at(1)));
    expect(patch).not.toHaveProperty("status");
    expect(patch).not.toHaveProperty("current_task");
  });

  it("completing a run of three takes the last task's output as its result", () => {
    const { row, open } = runAwaiting(
      [def("a"), def("b"), def("c")],
      [state("a", "completed"), state("b", "completed"), state("c", "pending_human_input")],
    );
    expect(patchOf(approve(row, open, who("ada"), { feedback: "" }, at(1))).result).toBe("draft");
  });
});

describe("webhooks given with a decision", () => {
  const hooks = { task: "https://t.example/h" };
  const decideOn = (status: string, webhooks: unknown, given?: typeof hooks) => {
    const { row, open } = runAwaiting(
      [def("a"), def("b")],
      [state("a", "pending_human_input"), state("b", "pending")],
    );
    const r = { ...row, status, webhooks } as ExecutionRow;
    return patchOf(approve(r, open, who("ada"), { feedback: "", webhooks: given }, at(1))).webhooks;
  };

  it("are taken by the decision that resumes a paused run, which keeps its stream", () => {
    expect(decideOn("pending_human_input", { stream: "https://s.example/" }, hooks)).toEqual({
      ...hooks,
      stream: "https://s.example/",
    });
    expect(decideOn("pending_human_input", null, hooks)).toEqual(hooks);
  });

  it("are not taken by a run that was not paused, nor changed without any", () => {
    expect(decideOn("running", { stream: "https://s.example/" }, hooks)).toBeUndefined();
    expect(decideOn("pending_human_input", { stream: "https://s.example/" })).toBeUndefined();
  });
});
