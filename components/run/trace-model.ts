import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import { applyTaskEvent } from "./trace-events";
import { artifactIn, runLevelStep, taskStatusShown } from "./trace-labels";
import { at, closeTasks, finishedAt, markStopped, text } from "./trace-steps";
import type { Trace, TraceArtifact, TraceStep, TraceTask } from "./trace-types";

// Builds the run's trace (trace-types.ts) from its event log and status, so it grows live.

type Building = {
  tasks: Map<string, TraceTask>;
  loose: TraceStep[];
  artifacts: Map<string, TraceArtifact>;
  openTools: Map<string, TraceStep>;
};

export function buildTrace(events: ExecutionEvent[], status: StatusResponse | undefined): Trace {
  const b: Building = {
    tasks: tasksFromStatus(status),
    loose: [],
    artifacts: new Map(),
    openTools: new Map(),
  };
  let first: number | null = status ? at(status.created_at) : null;
  let last: number | null = null;
  let stop: ExecutionEvent | null = null;
  for (const e of events) {
    const when = at(e.created_at);
    first = first === null ? when : Math.min(first, when);
    last = last === null ? when : Math.max(last, when);
    if (e.type === "execution_cancelled") stop = e;
    if (e.task_id) readTaskEvent(b, e, e.task_id, when);
    else readRunEvent(b.loose, e, when);
  }
  const runEnd = status ? finishedAt(status, last) : last;
  if (stop) markStopped(b.tasks.values(), stop);
  closeTasks(b.tasks.values(), runEnd);
  return {
    start: first ?? Date.now(),
    end: runEnd,
    tasks: [...b.tasks.values()],
    loose: b.loose,
    artifacts: [...b.artifacts.values()],
  };
}

function tasksFromStatus(status: StatusResponse | undefined) {
  const tasks = new Map<string, TraceTask>();
  for (const t of status?.tasks ?? []) {
    tasks.set(t.task_id, {
      taskId: t.task_id,
      name: t.name,
      agent: t.agent,
      status: taskStatusShown(status?.status, t.status),
      start: t.started_at ? at(t.started_at) : null,
      end: t.finished_at ? at(t.finished_at) : null,
      attempts: [],
      retries: 0,
    });
  }
  return tasks;
}

// Steps of no task are run-level rows, each from the previous one's end.
function readRunEvent(loose: TraceStep[], e: ExecutionEvent, when: number) {
  const row = runLevelStep(e);
  if (!row) return;
  loose.push({
    key: `e${e.seq}`,
    kind: row.kind,
    label: row.label,
    taskId: null,
    attempt: 1,
    start: loose.at(-1)?.end ?? when,
    end: when,
    events: [e],
  });
}

function readTaskEvent(b: Building, e: ExecutionEvent, taskId: string, when: number) {
  const t = taskOf(b.tasks, taskId, e);
  const a = attemptOf(t, e.attempt ?? 1, when);
  const d = e.data;
  const artifact = artifactIn(e, t.taskId);
  if (artifact) b.artifacts.set(artifact.name, artifact);
  if (d.format === "json") a.format = "json";
  const by = d.delegated_by ? ` · ${text(d.agent)}` : "";
  applyTaskEvent({ e, d, when, t, a, by, openTools: b.openTools });
}

// A task the status does not list yet (it grows live): named by its first event.
function taskOf(tasks: Map<string, TraceTask>, id: string, e: ExecutionEvent) {
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
}

function attemptOf(t: TraceTask, n: number, when: number) {
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
}

/** Milliseconds a bar lasts; `now` stands in for the end of what is still going on. */
export function spanOf(start: number | null, end: number | null, now: number) {
  if (start === null) return null;
  return Math.max(0, (end ?? now) - start);
}
