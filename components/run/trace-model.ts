import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";

// The run as a trace: tasks → attempts → steps, each with a start and an end on one clock (ms),
// built from the event log alone so it grows live as events arrive.

export type StepKind =
  | "thought"
  | "tool"
  | "answer"
  | "review"
  | "failed"
  | "remote"
  // An output check that passed (a guardrail), or one that sent the agent back (retry).
  | "check"
  | "retry";

export type TraceStep = {
  key: string;
  kind: StepKind;
  label: string;
  taskId: string | null;
  attempt: number;
  start: number;
  /** null while the step is still going on (a tool call without its result, a pending review). */
  end: number | null;
  /** The events this step is made of, in order (a tool call and its result are one step). */
  events: ExecutionEvent[];
  /** A coworker's step: the key of the delegation call it was done in, once that call is known. */
  under?: string;
};

export type TraceAttempt = {
  attempt: number;
  start: number;
  end: number | null;
  steps: TraceStep[];
  output: string | null;
  /** The reviewer's decision on this attempt, if any. */
  review: { decision: "approve" | "reject"; feedback: string; reviewer: string } | null;
  /** "json" when the output is the task's structured output (output_json). */
  format: "json" | "text";
};

/** A task's output kept as a file of the run (output_file). */
export type TraceArtifact = { taskId: string; name: string; bytes: number; contentType: string };

export type TraceTask = {
  taskId: string;
  name: string;
  agent: string;
  status: string;
  start: number | null;
  end: number | null;
  attempts: TraceAttempt[];
  /** Times a failed guardrail or invalid JSON sent the agent back within an attempt. */
  retries: number;
};

export type Trace = {
  start: number;
  end: number | null;
  tasks: TraceTask[];
  /** Steps of no known task: a remote run's status changes and payloads. */
  loose: TraceStep[];
  /** Files the run's tasks produced, latest per name. */
  artifacts: TraceArtifact[];
};

const at = (iso: string) => Date.parse(iso);
const text = (v: unknown) => (typeof v === "string" ? v : v === undefined ? "" : String(v));

const DELEGATION_TOOLS = new Set(["delegate_work_to_coworker", "ask_question_to_coworker"]);
const isDelegated = (s: TraceStep) => Boolean(s.events[0]?.data.delegated_by);

/**
 * A coworker works inside the delegation call, so its steps are written before the call itself
 * (a call is recorded once it returns). Shown as they happened: the call, then the coworker's
 * steps under it, from the call's start.
 */
function placeUnderCall(steps: TraceStep[]) {
  const call = steps.pop() as TraceStep;
  const moved = steps.filter((s) => isDelegated(s) && s.under === undefined);
  for (const s of moved) s.under = call.key;
  if (moved.length) call.start = Math.min(call.start, ...moved.map((s) => s.start));
  steps.splice(0, steps.length, ...steps.filter((s) => !moved.includes(s)), call, ...moved);
}

// CrewAI's delegation tools read as what they do: "Delegated to writer", "Asked researcher".
function toolLabel(d: Record<string, unknown>) {
  const coworker = (d.tool_input as { coworker?: unknown } | undefined)?.coworker;
  if (d.tool === "delegate_work_to_coworker" && typeof coworker === "string")
    return `Delegated to ${coworker}`;
  if (d.tool === "ask_question_to_coworker" && typeof coworker === "string")
    return `Asked ${coworker}`;
  return text(d.tool) || "Tool";
}

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
        a.output = text(d.output) || a.output;
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
        const decision = d.decision === "approve" ? "approve" : "reject";
        a.review = { decision, feedback: text(d.feedback), reviewer: text(d.reviewer) };
        if (pending) {
          pending.end = when;
          pending.events.push(e);
          pending.label = decision === "approve" ? "Approved" : "Changes requested";
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
      case "task_failed":
        step("failed", "Failed");
        a.end = when;
        break;
      default:
        if (e.type.startsWith("remote_")) step("remote", remoteLabel(e));
    }
  }

  const runEnd = status ? finishedAt(status, last) : last;
  for (const t of tasks.values()) {
    for (const a of t.attempts) {
      const lastStep = a.steps.at(-1);
      if (a.end === null && (lastStep?.end ?? null) !== null && t.status !== "running")
        a.end = lastStep?.end ?? null;
      // A run that ended leaves nothing open.
      if (runEnd !== null) {
        for (const s of a.steps) {
          if (s.end !== null) continue;
          s.end = runEnd;
          if (s.kind === "review") s.label = "Review cut short";
        }
        a.end ??= runEnd;
      }
    }
    // The task's bar spans all its attempts (/status only knows when the latest one started).
    const firstAttempt = t.attempts[0]?.start ?? null;
    if (firstAttempt !== null) t.start = Math.min(t.start ?? firstAttempt, firstAttempt);
    if (t.end === null && runEnd !== null && t.attempts.length) t.end = runEnd;
    if (t.status === "running" || t.status === "pending_human_input") t.end = null;
  }
  return {
    start: first ?? Date.now(),
    end: runEnd,
    tasks: [...tasks.values()],
    loose,
    artifacts: [...artifacts.values()],
  };
}

const FINAL = new Set(["completed", "error", "cancelled"]);

function finishedAt(status: StatusResponse, lastEvent: number | null): number | null {
  if (!FINAL.has(status.status)) return null;
  const measured =
    status.execution_time !== null ? at(status.created_at) + status.execution_time * 1000 : null;
  return Math.max(lastEvent ?? 0, measured ?? at(status.updated_at));
}

function remoteLabel(e: ExecutionEvent): string {
  if (e.type === "remote_status") return `Status: ${text(e.data.to).replaceAll("_", " ")}`;
  if (e.type === "remote_error") return "Deployment error";
  return `${e.type.replace("remote_", "")} from the deployment`;
}

/** Milliseconds a bar lasts; `now` stands in for the end of what is still going on. */
export function spanOf(start: number | null, end: number | null, now: number) {
  if (start === null) return null;
  return Math.max(0, (end ?? now) - start);
}
