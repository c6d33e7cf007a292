import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import {
  at,
  closeTasks,
  DELEGATION_TOOLS,
  finishedAt,
  markStopped,
  placeUnderCall,
  remoteLabel,
  text,
  toolLabel,
} from "./trace-steps";
import type {
  StepKind,
  Trace,
  TraceArtifact,
  TraceAttempt,
  TraceStep,
  TraceTask,
} from "./trace-types";

// Builds the run's trace (trace-types.ts) from its event log and status, so it grows live.

export function buildTrace(events: ExecutionEvent[], status: StatusResponse | undefined): Trace {
  const tasks = new Map<string, TraceTask>();
  for (const t of status?.tasks ?? []) {
    tasks.set(t.task_id, {
      taskId: t.task_id,
      name: t.name,
      agent: t.agent,
      // A stop marks unfinished tasks as errors; on screen they were stopped, not failed.
      status: status?.status === "cancelled" && t.status === "error" ? "cancelled" : t.status,
      start: t.started_at ? at(t.started_at) : null,
      end: t.finished_at ? at(t.finished_at) : null,
      attempts: [],
      retries: 0,
    });
  }
  const loose: TraceStep[] = [];
  const artifacts = new Map<string, TraceArtifact>();
  const openTools = new Map<string, TraceStep>();
  let first: number | null = status ? at(status.created_at) : null;
  let last: number | null = null;
  let stop: ExecutionEvent | null = null;

  const task = (id: string, e: ExecutionEvent) => {
    let t = tasks.get(id);
    if (!t) {
      t = {
        taskId: id,
        name: text(e.data.name) || id,
        agent: text(e.data.agent),
        status: "pending",
        start: null,
        end: null,
        attempts: [],
        retries: 0,
      };
      tasks.set(id, t);
    }
    return t;
  };
  const attemptOf = (t: TraceTask, n: number, when: number) => {
    let a = t.attempts.find((x) => x.attempt === n);
    if (!a) {
      a = {
        attempt: n,
        start: when,
        end: null,
        steps: [],
        output: null,
        review: null,
        format: "text",
      };
      t.attempts.push(a);
      t.attempts.sort((x, y) => x.attempt - y.attempt);
    }
    return a;
  };
  // A step runs from the previous thing that happened in its attempt to its own event.
  const cursor = (a: TraceAttempt) => {
    const prev = a.steps.at(-1);
    return prev ? (prev.end ?? prev.start) : a.start;
  };

  for (const e of events) {
    const when = at(e.created_at);
    first = first === null ? when : Math.min(first, when);
    last = last === null ? when : Math.max(last, when);
    const d = e.data;
    if (e.type === "execution_cancelled") stop = e;
    if (!e.task_id) {
      // A deployment known only by polling says what it is doing without naming the task: its
      // progress is a run-level row like its state changes.
      const polled = e.type === "thought" ? "thought" : e.type === "answer" ? "answer" : null;
      if (e.type.startsWith("remote_") || polled) {
        loose.push({
          key: `e${e.seq}`,
          kind: polled ?? "remote",
          label: polled === "thought" ? "Thought" : polled === "answer" ? "Answer" : remoteLabel(e),
          taskId: null,
          attempt: 1,
          start: loose.at(-1)?.end ?? when,
          end: when,
          events: [e],
        });
      }
      continue;
    }
    const t = task(e.task_id, e);
    const a = attemptOf(t, e.attempt ?? 1, when);
    const step = (kind: StepKind, label: string, end: number | null = when): TraceStep => {
      const s: TraceStep = {
        key: `e${e.seq}`,
        kind,
        label,
        taskId: t.taskId,
        attempt: a.attempt,
        start: Math.min(cursor(a), when),
        end,
        events: [e],
      };
      a.steps.push(s);
      return s;
    };
    // A coworker's steps in a delegated task (hierarchical manager, allow_delegation) say whose.
    const by = d.delegated_by ? ` · ${text(d.agent)}` : "";
    // A task's output_file names its artifact; write_file's result names the workspace file it
    // kept (workspace/…), so files an agent wrote are listed too.
    const written =
      e.type === "tool_result" && d.tool === "write_file"
        ? ((d.result as { artifact?: unknown } | null)?.artifact ?? undefined)
        : undefined;
    const artifact = (d.artifact ?? written) as {
      name?: unknown;
      bytes?: unknown;
      content_type?: unknown;
    };
    if (artifact && typeof artifact.name === "string") {
      artifacts.set(artifact.name, {
        taskId: t.taskId,
        name: artifact.name,
        bytes: Number(artifact.bytes) || 0,
        contentType: text(artifact.content_type),
      });
    }
    if (d.format === "json") a.format = "json";
    switch (e.type) {
      case "task_started":
        // Going on after tool calls were approved is the same attempt, started earlier.
        if (!d.continued) a.start = when;
        t.start ??= when;
        if (t.status === "pending") t.status = "running";
        break;
      case "thought":
        step("thought", `Thought${by}`);
        break;
      case "answer":
        step("answer", `Answer${by}`);
        break;
      case "tool_call": {
        const s = step("tool", toolLabel(d) + by, null);
        s.start = Math.max(s.start, when);
        openTools.set(`${t.taskId}/${a.attempt}/${text(d.call_id) || text(d.tool)}`, s);
        if (DELEGATION_TOOLS.has(text(d.tool))) placeUnderCall(a.steps);
        break;
      }
      case "tool_result": {
        const k = `${t.taskId}/${a.attempt}/${text(d.call_id) || text(d.tool)}`;
        const open = openTools.get(k);
        if (open) {
          open.events.push(e);
          open.end = when;
          openTools.delete(k);
          // Keep steps in time order: the result may close a call after later thoughts.
        } else {
          step("tool", toolLabel(d) + by);
        }
        break;
      }
      case "task_completed":
        // Approved with an edit: the attempt keeps the agent's output; the edit is its revision.
        if (!d.edited || !a.edit) a.output = text(d.output) || a.output;
        // An approval completes the task later; the attempt's work ended when review began.
        if (!d.reviewed || a.end === null) a.end = when;
        break;
      case "review_requested":
        if (d.kind === "tool_call") {
          // The attempt is not over: its agent waits for a call to be approved, then goes on.
          const tools = Array.isArray(d.tool_calls)
            ? d.tool_calls.map((c) => text((c as { tool?: unknown }).tool)).join(", ")
            : "";
          step("review", `Awaiting approval${tools ? ` · ${tools}` : ""}`, null).start = when;
          break;
        }
        a.output = text(d.output) || a.output;
        a.end ??= when;
        step("review", "Awaiting review", null).start = when;
        break;
      case "review_submitted": {
        if (d.kind === "tool_call") {
          const pending = [...a.steps].reverse().find((s) => s.kind === "review" && s.end === null);
          if (pending) {
            pending.end = when;
            pending.events.push(e);
            pending.label = `${d.effect === "refused" ? "Refused" : "Approved"} · ${text(d.tool)}`;
          }
          break;
        }
        const pending = [...a.steps].reverse().find((s) => s.kind === "review" && s.end === null);
        // One vote of a quorum: the review stays open, with the tally.
        if (d.effect === "approval_recorded") {
          const tally = d.approvals as { count?: unknown; required?: unknown } | undefined;
          if (pending) {
            pending.events.push(e);
            const of = `${Number(tally?.count) || 1} of ${Number(tally?.required) || 2} approved`;
            pending.label = `Awaiting review · ${of}`;
            pending.short = of;
          }
          break;
        }
        const decision = d.decision === "approve" ? "approve" : "reject";
        a.review = { decision, feedback: text(d.feedback), reviewer: text(d.reviewer) };
        if (d.edited && typeof d.edited_output === "string")
          a.edit = { output: d.edited_output, reviewer: text(d.reviewer) };
        if (pending) {
          pending.end = when;
          pending.events.push(e);
          pending.label =
            decision === "reject"
              ? "Changes requested"
              : d.edited
                ? "Approved with edits"
                : "Approved";
          pending.short = undefined;
        }
        break;
      }
      case "guardrail_passed":
        step("check", "Guardrail passed");
        break;
      case "guardrail_failed":
      case "output_invalid":
        // Short labels (the row is narrow); which retry it caused is in the detail.
        t.retries += d.final ? 0 : 1;
        step(
          d.final ? "failed" : "retry",
          e.type === "output_invalid" ? "Invalid JSON" : "Guardrail failed",
        );
        break;
      case "tool_warning":
        step("warning", "Without some tools");
        break;
      case "task_inherited":
        // A fork's task: the origin's output, and the edit made before the fork, as its revision.
        t.start ??= when;
        a.output = text(d.output) || a.output;
        if (d.edited && typeof d.edited_output === "string")
          a.edit = { output: d.edited_output, reviewer: text(d.by), when: "forking" };
        a.end = when;
        step("inherited", d.edited ? `Inherited, edited by ${text(d.by)}` : "Inherited");
        break;
      case "task_failed":
        step("failed", "Failed");
        a.end = when;
        break;
      default:
        if (e.type.startsWith("remote_")) step("remote", remoteLabel(e));
    }
  }

  const runEnd = status ? finishedAt(status, last) : last;
  if (stop) markStopped(tasks.values(), stop);
  closeTasks(tasks.values(), runEnd);
  return {
    start: first ?? Date.now(),
    end: runEnd,
    tasks: [...tasks.values()],
    loose,
    artifacts: [...artifacts.values()],
  };
}

/** Milliseconds a bar lasts; `now` stands in for the end of what is still going on. */
export function spanOf(start: number | null, end: number | null, now: number) {
  if (start === null) return null;
  return Math.max(0, (end ?? now) - start);
}
