import { pendingTask } from "@/lib/run-model/pending-task";
import { TASK_STATUSES, type TaskStatus } from "@/lib/run-model/states";
import type { TaskState } from "@/lib/run-model/types";
import { isOneOf } from "@/lib/util/one-of";
import type { RemoteTask } from "./remote-status";

// The tasks of a remote run, from two sources: the events of its log (mirrored from a remote
// Crewdeck, or derived from an earlier /status), and the latest /status snapshot. A snapshot can
// be older than the log (read before the log was copied, or served by a lagging cache), so
// neither simply overwrites the other: each task takes whichever source is further along —
// compared by attempt, then by how far that attempt got. The fold looks at all of a task's events
// at once, so events that arrive out of order or twice give the same tasks.

export const TASK_EVENT_TYPES = [
  "task_started",
  "review_requested",
  "review_submitted",
  "task_completed",
  "task_failed",
] as const;

export type TaskEvent = {
  seq?: number;
  type: string;
  task_id?: string | null;
  attempt?: number | null;
  data?: Record<string, unknown>;
  created_at?: string | Date | null;
};

type Progress = {
  attempt: number;
  phase: number;
  status: TaskStatus;
  output?: string | null;
  agent?: string;
  name?: string;
  started_at?: string;
  finished_at?: string;
};

// How far an attempt got. A rejected review (2.5) waits for the next attempt to start.
const PHASE = { pending: 0, running: 1, pending_human_input: 2, retry: 2.5, done: 3 } as const;

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const iso = (v: TaskEvent["created_at"]) =>
  v === undefined || v === null ? undefined : new Date(v).toISOString();

function progressOf(e: TaskEvent): Progress | undefined {
  const d = e.data ?? {};
  const base = {
    attempt: e.attempt ?? 1,
    agent: str(d.agent),
    name: str(d.name),
  };
  switch (e.type) {
    case "task_started":
      return { ...base, phase: PHASE.running, status: "running", started_at: iso(e.created_at) };
    case "review_requested":
      return {
        ...base,
        phase: PHASE.pending_human_input,
        status: "pending_human_input",
        output: str(d.output) ?? null,
      };
    case "review_submitted":
      return d.decision === "reject"
        ? { ...base, phase: PHASE.retry, status: "pending" }
        : { ...base, phase: PHASE.done, status: "completed", finished_at: iso(e.created_at) };
    case "task_completed":
      return {
        ...base,
        phase: PHASE.done,
        status: "completed",
        output: str(d.output) ?? null,
        finished_at: iso(e.created_at),
      };
    case "task_failed":
      return { ...base, phase: PHASE.done, status: "error", finished_at: iso(e.created_at) };
    default:
      return undefined;
  }
}

const ahead = (a: Progress, b: Progress) =>
  a.attempt !== b.attempt ? a.attempt > b.attempt : a.phase > b.phase;

/** Per task: the furthest point its events reach, with the details gathered on the way. */
function foldEvents(events: TaskEvent[]) {
  const byTask = new Map<string, { best: Progress; all: Progress[]; firstSeq: number }>();
  events.forEach((e, i) => {
    if (!e.task_id) return;
    const p = progressOf(e);
    if (!p) return;
    const seen = byTask.get(e.task_id);
    if (!seen) byTask.set(e.task_id, { best: p, all: [p], firstSeq: e.seq ?? 1e12 + i });
    else {
      seen.all.push(p);
      if (ahead(p, seen.best)) seen.best = p;
    }
  });
  return byTask;
}

/** What a snapshot's (or our previous) entry for a task says, as progress. */
function progressOfState(t: TaskState, log: Progress): Progress {
  const attempts = t.attempts || 0;
  const phase =
    t.status === "completed" || t.status === "error"
      ? PHASE.done
      : t.status === "pending_human_input"
        ? PHASE.pending_human_input
        : t.status === "running"
          ? PHASE.running
          : attempts > 0
            ? PHASE.retry
            : PHASE.pending;
  // An entry that does not count attempts (a CrewAI snapshot) speaks of the latest one — or of
  // the next, when it says the task is under way again after a rejected review.
  const uncounted =
    log.phase === PHASE.retry && (phase === PHASE.running || phase === PHASE.pending_human_input)
      ? log.attempt + 1
      : log.attempt;
  return { attempt: attempts || uncounted, phase, status: t.status, output: t.output };
}

/**
 * The tasks after these events: `base` (the snapshot's list, or the tasks we had) in its order,
 * each task advanced to where its events say it got, never moved back by a stale snapshot.
 */
export function mergeTasks(base: TaskState[], events: TaskEvent[]): TaskState[] {
  const folded = foldEvents(events);
  const known = new Set(base.map((t) => t.task_id));
  const extra = [...folded.entries()]
    .filter(([id]) => !known.has(id))
    .sort((a, b) => a[1].firstSeq - b[1].firstSeq)
    .map(([id, f]) => blankTask(id, f.best.name));
  return [...base, ...extra].map((t) => {
    const f = folded.get(t.task_id);
    if (!f) return t;
    const mine = progressOfState(t, f.best);
    if (ahead(mine, f.best)) return { ...t, attempts: mine.attempt };
    const { best, all } = f;
    const sameAttempt = all.filter((p) => p.attempt === best.attempt);
    const latest = <K extends keyof Progress>(key: K) =>
      sameAttempt.reduce<Progress[K] | undefined>(
        (v, p) => (p[key] !== undefined && p[key] !== null ? p[key] : v),
        undefined,
      );
    const startedAt = latest("started_at") ?? t.started_at;
    const finishedAt = best.phase === PHASE.done ? (latest("finished_at") ?? t.finished_at) : null;
    return {
      ...t,
      name: t.name && t.name !== t.task_id ? t.name : (latest("name") ?? t.name),
      agent: t.agent || latest("agent") || "",
      status: best.status,
      attempts: best.attempt,
      output: latest("output") ?? (best.attempt === mine.attempt ? t.output : null),
      started_at: startedAt ?? null,
      finished_at: finishedAt ?? null,
      execution_time:
        startedAt && finishedAt
          ? Math.round((Date.parse(finishedAt) - Date.parse(startedAt)) / 10) / 100
          : t.execution_time,
    };
  });
}

function blankTask(task_id: string, name: string | undefined): TaskState {
  return pendingTask({ task_id, name: name ?? task_id, agent: "", human_input: false });
}

/**
 * A /status snapshot's tasks as our task list, keeping what we knew of each (its agent, times).
 * A task of a completed run that has an output is done, whatever word the remote used.
 */
export function tasksFromSnapshot(
  snapshot: RemoteTask[],
  runCompleted: boolean,
  previous: TaskState[],
): TaskState[] {
  return snapshot.map((t) => {
    const before = previous.find((p) => p.task_id === t.task_id);
    const done = t.status === "completed" || (runCompleted && t.output !== null);
    const status = done ? "completed" : asTaskStatus(t.status);
    return {
      ...(before ?? blankTask(t.task_id, undefined)),
      name: t.name ?? before?.name ?? t.task_id,
      status: status ?? before?.status ?? "pending",
      // 0 when the remote does not count them (CrewAI): the events count them then.
      attempts: t.attempts ?? 0,
      output: t.output ?? before?.output ?? null,
    };
  });
}

const asTaskStatus = (s: string | null) =>
  s !== null && isOneOf(TASK_STATUSES, s) ? s : undefined;
