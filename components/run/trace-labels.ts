import type { ExecutionEvent } from "@/lib/contract/status";
import { fieldOf } from "@/lib/util/field";
import { remoteLabel, text } from "./trace-steps";
import type { StepKind, TraceArtifact } from "./trace-types";

// The decisions buildTrace makes about one event's data: which row it is and what the row says.

/** A stop marks unfinished tasks as errors; on screen they were stopped, not failed. */
export function taskStatusShown(runStatus: string | undefined, taskStatus: string): string {
  return runStatus === "cancelled" && taskStatus === "error" ? "cancelled" : taskStatus;
}

/**
 * A run-level row for an event of no task: a remote deployment's state changes, and what a
 * deployment known only by polling says it is doing (it does not name the task). Else null.
 */
export function runLevelStep(e: ExecutionEvent): { kind: StepKind; label: string } | null {
  if (e.type === "thought") return { kind: "thought", label: "Thought" };
  if (e.type === "answer") return { kind: "answer", label: "Answer" };
  if (e.type.startsWith("remote_")) return { kind: "remote", label: remoteLabel(e) };
  return null;
}

/**
 * The file an event says a task produced: a task's output_file names its artifact; write_file's
 * result names the workspace file it kept (workspace/…), so files an agent wrote are listed too.
 */
export function artifactIn(e: ExecutionEvent, taskId: string): TraceArtifact | null {
  const d = e.data;
  const written =
    e.type === "tool_result" && d.tool === "write_file"
      ? (fieldOf(d.result, "artifact") ?? undefined)
      : undefined;
  const artifact = d.artifact ?? written;
  const name = fieldOf(artifact, "name");
  if (!artifact || typeof name !== "string") return null;
  return {
    taskId,
    name,
    bytes: Number(fieldOf(artifact, "bytes")) || 0,
    contentType: text(fieldOf(artifact, "content_type")),
  };
}

/** Which open tool call a result closes: per task and attempt, by call id (else tool name). */
export function toolCallKey(taskId: string, attempt: number, d: Record<string, unknown>): string {
  return `${taskId}/${attempt}/${text(d.call_id) || text(d.tool)}`;
}

/** A review of tool calls waiting: which tools it holds back. */
export function approvalWaitLabel(toolCalls: unknown): string {
  const tools = Array.isArray(toolCalls)
    ? toolCalls.map((c) => text(fieldOf(c, "tool"))).join(", ")
    : "";
  return `Awaiting approval${tools ? ` · ${tools}` : ""}`;
}

export function toolReviewLabel(effect: unknown, tool: unknown): string {
  return `${effect === "refused" ? "Refused" : "Approved"} · ${text(tool)}`;
}

/** One vote of a quorum: the tally so far ("1 of 2 approved"). */
export function quorumTally(approvals: unknown): string {
  const count = Number(fieldOf(approvals, "count")) || 1;
  const required = Number(fieldOf(approvals, "required")) || 2;
  return `${count} of ${required} approved`;
}

export function decisionLabel(decision: "approve" | "reject", edited: unknown): string {
  if (decision === "reject") return "Changes requested";
  return edited ? "Approved with edits" : "Approved";
}

/**
 * A failed output check: a retry row, or a failure when it was the last try. Short labels (the
 * row is narrow); which retry it caused is in the detail.
 */
export function failedCheckStep(
  type: string,
  final: unknown,
): { kind: StepKind; label: string; retries: number } {
  return {
    kind: final ? "failed" : "retry",
    label: type === "output_invalid" ? "Invalid JSON" : "Guardrail failed",
    retries: final ? 0 : 1,
  };
}
