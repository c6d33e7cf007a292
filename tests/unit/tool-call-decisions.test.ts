import { describe, expect, it } from "vitest";
import { toolCallsResult } from "@/lib/reviews/resume-tool-calls";
import { decided, toolReviewOf, withDecision } from "@/lib/reviews/tool-calls";
import { who } from "../support/review-rows";

// A decision on gated tool calls, on the calls alone: what each call keeps, what the task's
// record says, what the agent goes on with and what the API answers.

const call = { call_id: "c1", tool: "write_file", arguments: { path: "a" }, input_schema: {} };
const approve = { approved: true, call_ids: ["c1"], feedback: "ok" };
const AT = "2026-01-01T00:01:00.000Z";

describe("a call with its decision", () => {
  it("runs with the model's arguments unless edited", () => {
    expect(withDecision(call, approve, who("ada"), AT).decision).toEqual({
      approved: true,
      arguments: { path: "a" },
      edited: false,
      reason: "ok",
      reviewer: "ada",
      at: AT,
    });
    const edited = withDecision(
      call,
      { ...approve, edited_arguments: { path: "b" } },
      who("ada"),
      AT,
    );
    expect(edited.decision).toMatchObject({ arguments: { path: "b" }, edited: true });
    expect(edited.arguments).toEqual({ path: "a" });
  });

  it("is kept in the task's record with the model's arguments, and the edit beside them", () => {
    const edited = withDecision(
      call,
      { ...approve, edited_arguments: { path: "b" } },
      who("ada"),
      AT,
    );
    expect(toolReviewOf({ attempt: 2 }, edited, approve, who("ada"), AT)).toEqual({
      attempt: 2,
      call_id: "c1",
      tool: "write_file",
      approved: true,
      arguments: { path: "a" },
      edited_arguments: { path: "b" },
      feedback: "ok",
      reviewer: "ada",
      at: AT,
    });
    const plain = withDecision(call, approve, who("ada"), AT);
    expect(toolReviewOf({ attempt: 1 }, plain, approve, who("ada"), AT)).not.toHaveProperty(
      "edited_arguments",
    );
  });
});

describe("the calls the agent goes on with", () => {
  it("run as decided, or are refused with the reason", () => {
    const refuse = { approved: false, call_ids: ["c2"], feedback: "not that file" };
    const calls = [
      withDecision(call, { ...approve, edited_arguments: { path: "b" } }, who("ada"), AT),
      withDecision({ ...call, call_id: "c2" }, refuse, who("ada"), AT),
      { ...call, call_id: "c3" },
    ];
    expect(decided(calls)).toEqual([
      {
        call_id: "c1",
        tool: "write_file",
        approved: true,
        arguments: { path: "b" },
        reason: "ok",
        edited: true,
      },
      {
        call_id: "c2",
        tool: "write_file",
        approved: false,
        arguments: { path: "a" },
        reason: "not that file",
        edited: false,
      },
      {
        call_id: "c3",
        tool: "write_file",
        approved: false,
        arguments: { path: "a" },
        reason: "",
        edited: false,
      },
    ]);
  });
});

describe("what a decision on tool calls answers", () => {
  const review = { task_id: "t" };
  const targets = [{ tool: "a" }, { tool: "b" }];

  it("counts the calls still waiting while the review is open", () => {
    expect(toolCallsResult(review, targets, true, 1, "pending_human_input")).toEqual({
      status: "waiting",
      message: "'a', 'b' approved; 1 more tool call(s) of task 't' await a decision.",
    });
  });

  it("once closed, says whether the run awaits other reviews or the task goes on", () => {
    expect(toolCallsResult(review, targets, false, undefined, "pending_human_input")).toEqual({
      status: "waiting",
      message: "'a', 'b' refused; the execution still awaits other review(s).",
    });
    expect(toolCallsResult(review, [{ tool: "a" }], true, undefined, "running")).toEqual({
      status: "resumed",
      message: "'a' approved; task 't' goes on with the call.",
    });
    expect(toolCallsResult(review, [{ tool: "a" }], false, undefined, "running")).toEqual({
      status: "resumed",
      message: "'a' refused; task 't' goes on without it.",
    });
  });
});
