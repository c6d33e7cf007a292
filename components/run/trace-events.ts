import type { ExecutionEvent } from "@/lib/contract/status";
import {
  approvalWaitLabel,
  decisionLabel,
  failedCheckStep,
  quorumTally,
  toolCallKey,
  toolReviewLabel,
} from "./trace-labels";
import { DELEGATION_TOOLS, placeUnderCall, remoteLabel, text, toolLabel } from "./trace-steps";
import type { StepKind, TraceAttempt, TraceStep, TraceTask } from "./trace-types";

// What one event of a task does to its attempt in the trace (buildTrace reads them in order).

export type TaskEvent = {
  e: ExecutionEvent;
  d: Record<string, unknown>;
  when: number;
  t: TraceTask;
  a: TraceAttempt;
  /** A coworker's steps in a delegated task (hierarchical manager, allow_delegation) say whose. */
  by: string;
  /** Tool calls still waiting for their result, by toolCallKey. */
  openTools: Map<string, TraceStep>;
};

// A step runs from the previous thing that happened in its attempt to its own event.
function cursor(a: TraceAttempt) {
  const prev = a.steps.at(-1);
  return prev ? (prev.end ?? prev.start) : a.start;
}

function addStep(c: TaskEvent, kind: StepKind, label: string, end: number | null = c.when) {
  const s: TraceStep = {
    key: `e${c.e.seq}`,
    kind,
    label,
    taskId: c.t.taskId,
    attempt: c.a.attempt,
    start: Math.min(cursor(c.a), c.when),
    end,
    events: [c.e],
  };
  c.a.steps.push(s);
  return s;
}

export function applyTaskEvent(c: TaskEvent) {
  const { e, d, when, t, a, by } = c;
  switch (e.type) {
    case "task_started":
      // Going on after tool calls were approved is the same attempt, started earlier.
      if (!d.continued) a.start = when;
      t.start ??= when;
      if (t.status === "pending") t.status = "running";
      break;
    case "thought":
      addStep(c, "thought", `Thought${by}`);
      break;
    case "answer":
      addStep(c, "answer", `Answer${by}`);
      break;
    case "tool_call":
      toolCalled(c);
      break;
    case "tool_result":
      toolReturned(c);
      break;
    case "task_completed":
      // Approved with an edit: the attempt keeps the agent's output; the edit is its revision.
      if (!d.edited || !a.edit) a.output = text(d.output) || a.output;
      // An approval completes the task later; the attempt's work ended when review began.
      if (!d.reviewed || a.end === null) a.end = when;
      break;
    case "review_requested":
      reviewRequested(c);
      break;
    case "review_submitted":
      reviewSubmitted(c);
      break;
    case "guardrail_passed":
      addStep(c, "check", "Guardrail passed");
      break;
    case "guardrail_failed":
    case "output_invalid": {
      const check = failedCheckStep(e.type, d.final);
      t.retries += check.retries;
      addStep(c, check.kind, check.label);
      break;
    }
    case "tool_warning":
      addStep(c, "warning", "Without some tools");
      break;
    case "task_inherited":
      inherited(c);
      break;
    case "task_failed":
      addStep(c, "failed", "Failed");
      a.end = when;
      break;
    default:
      if (e.type.startsWith("remote_")) addStep(c, "remote", remoteLabel(e));
  }
}

function toolCalled(c: TaskEvent) {
  const s = addStep(c, "tool", toolLabel(c.d) + c.by, null);
  s.start = Math.max(s.start, c.when);
  c.openTools.set(toolCallKey(c.t.taskId, c.a.attempt, c.d), s);
  if (DELEGATION_TOOLS.has(text(c.d.tool))) placeUnderCall(c.a.steps);
}

function toolReturned(c: TaskEvent) {
  const k = toolCallKey(c.t.taskId, c.a.attempt, c.d);
  const open = c.openTools.get(k);
  if (!open) {
    addStep(c, "tool", toolLabel(c.d) + c.by);
    return;
  }
  open.events.push(c.e);
  open.end = c.when;
  c.openTools.delete(k);
  // Keep steps in time order: the result may close a call after later thoughts.
}

function reviewRequested(c: TaskEvent) {
  const { a, d, when } = c;
  if (d.kind === "tool_call") {
    // The attempt is not over: its agent waits for a call to be approved, then goes on.
    addStep(c, "review", approvalWaitLabel(d.tool_calls), null).start = when;
    return;
  }
  a.output = text(d.output) || a.output;
  a.end ??= when;
  addStep(c, "review", "Awaiting review", null).start = when;
}

const pendingReview = (a: TraceAttempt) =>
  [...a.steps].reverse().find((s) => s.kind === "review" && s.end === null);

function reviewSubmitted(c: TaskEvent) {
  const { a, d, e, when } = c;
  const pending = pendingReview(a);
  if (d.kind === "tool_call") {
    if (!pending) return;
    pending.end = when;
    pending.events.push(e);
    pending.label = toolReviewLabel(d.effect, d.tool);
    return;
  }
  // One vote of a quorum: the review stays open, with the tally.
  if (d.effect === "approval_recorded") {
    if (!pending) return;
    pending.events.push(e);
    const of = quorumTally(d.approvals);
    pending.label = `Awaiting review · ${of}`;
    pending.short = of;
    return;
  }
  const decision = d.decision === "approve" ? "approve" : "reject";
  a.review = { decision, feedback: text(d.feedback), reviewer: text(d.reviewer) };
  if (d.edited && typeof d.edited_output === "string")
    a.edit = { output: d.edited_output, reviewer: text(d.reviewer) };
  if (!pending) return;
  pending.end = when;
  pending.events.push(e);
  pending.label = decisionLabel(decision, d.edited);
  pending.short = undefined;
}

// A fork's task: the origin's output, and the edit made before the fork, as its revision.
function inherited(c: TaskEvent) {
  const { t, a, d, when } = c;
  t.start ??= when;
  a.output = text(d.output) || a.output;
  if (d.edited && typeof d.edited_output === "string")
    a.edit = { output: d.edited_output, reviewer: text(d.by), when: "forking" };
  a.end = when;
  addStep(c, "inherited", d.edited ? `Inherited, edited by ${text(d.by)}` : "Inherited");
}
