import { describe, expect, it } from "vitest";
import {
  approvalWaitLabel,
  artifactIn,
  decisionLabel,
  failedCheckStep,
  quorumTally,
  runLevelStep,
  taskStatusShown,
  toolCallKey,
  toolReviewLabel,
} from "@/components/run/trace-labels";
import type { ExecutionEvent } from "@/lib/contract/status";

// What each row of a run's trace says, decided from one event's data.
const ev = (type: string, data: Record<string, unknown> = {}): ExecutionEvent => ({
  seq: 1,
  type,
  task_id: null,
  attempt: 1,
  data,
  created_at: "2026-01-01T00:00:00.000Z",
});

describe("trace labels", () => {
  it("shows a stopped run's errored tasks as cancelled, and nothing else changed", () => {
    expect(taskStatusShown("cancelled", "error")).toBe("cancelled");
    expect(taskStatusShown("error", "error")).toBe("error");
    expect(taskStatusShown("cancelled", "completed")).toBe("completed");
    expect(taskStatusShown(undefined, "error")).toBe("error");
  });

  it("makes run-level rows of polled thoughts and answers and of remote events only", () => {
    expect(runLevelStep(ev("thought"))).toEqual({ kind: "thought", label: "Thought" });
    expect(runLevelStep(ev("answer"))).toEqual({ kind: "answer", label: "Answer" });
    expect(runLevelStep(ev("remote_status", { to: "in_progress" }))).toEqual({
      kind: "remote",
      label: "Status: in progress",
    });
    expect(runLevelStep(ev("remote_error"))).toEqual({ kind: "remote", label: "Deployment error" });
    expect(runLevelStep(ev("task_started"))).toBeNull();
    expect(runLevelStep(ev("execution_cancelled"))).toBeNull();
  });

  it("finds the file an event names: an output file, or what write_file kept", () => {
    const file = { name: "a.md", bytes: 3, content_type: "text/markdown" };
    const expected = { taskId: "t", name: "a.md", bytes: 3, contentType: "text/markdown" };
    expect(artifactIn(ev("task_completed", { artifact: file }), "t")).toEqual(expected);
    expect(
      artifactIn(ev("tool_result", { tool: "write_file", result: { artifact: file } }), "t"),
    ).toEqual(expected);
    // Another tool's result, or a result that is text, names no file.
    expect(
      artifactIn(ev("tool_result", { tool: "read_file", result: { artifact: file } }), "t"),
    ).toBeNull();
    expect(artifactIn(ev("tool_result", { tool: "write_file", result: "ok" }), "t")).toBeNull();
    expect(
      artifactIn(ev("tool_call", { tool: "write_file", result: { artifact: file } }), "t"),
    ).toBeNull();
    expect(artifactIn(ev("task_completed", { artifact: { bytes: 1 } }), "t")).toBeNull();
    expect(artifactIn(ev("task_completed", { artifact: "a.md" }), "t")).toBeNull();
    // The task's own artifact wins over what write_file kept; sizes and types may be missing.
    expect(
      artifactIn(
        ev("tool_result", {
          tool: "write_file",
          artifact: { name: "own.md", bytes: "x" },
          result: { artifact: file },
        }),
        "t",
      ),
    ).toEqual({ taskId: "t", name: "own.md", bytes: 0, contentType: "" });
  });

  it("keys a tool call by task, attempt and call id, else the tool's name", () => {
    expect(toolCallKey("t", 2, { call_id: "c1", tool: "search" })).toBe("t/2/c1");
    expect(toolCallKey("t", 1, { tool: "search" })).toBe("t/1/search");
  });

  it("names the tools a review holds back, and its decision", () => {
    expect(approvalWaitLabel([{ tool: "a" }, { tool: "b" }])).toBe("Awaiting approval · a, b");
    expect(approvalWaitLabel([])).toBe("Awaiting approval");
    expect(approvalWaitLabel(undefined)).toBe("Awaiting approval");
    expect(toolReviewLabel("refused", "rm")).toBe("Refused · rm");
    expect(toolReviewLabel("approved", "rm")).toBe("Approved · rm");
  });

  it("tallies a quorum's votes, one of two when it does not say", () => {
    expect(quorumTally({ count: 2, required: 3 })).toBe("2 of 3 approved");
    expect(quorumTally(undefined)).toBe("1 of 2 approved");
    expect(quorumTally({ count: 0, required: "x" })).toBe("1 of 2 approved");
  });

  it("labels a decided review", () => {
    expect(decisionLabel("reject", true)).toBe("Changes requested");
    expect(decisionLabel("approve", true)).toBe("Approved with edits");
    expect(decisionLabel("approve", false)).toBe("Approved");
  });

  it("makes a failed check a retry until the last try fails", () => {
    expect(failedCheckStep("guardrail_failed", false)).toEqual({
      kind: "retry",
      label: "Guardrail failed",
      retries: 1,
    });
    expect(failedCheckStep("output_invalid", true)).toEqual({
      kind: "failed",
      label: "Invalid JSON",
      retries: 0,
    });
  });
});
