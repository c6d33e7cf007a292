import { LEGEND } from "./step-style";
import type { TraceRow } from "./trace-rows";
import type { StepKind, Trace } from "./trace-types";

// The waterfall's decisions (waterfall.tsx): its legend, what is selected, what a key does.

/** Output checks join the legend only on runs that have them. */
export function legendFor(trace: Trace): StepKind[] {
  const kinds = new Set(
    trace.tasks.flatMap((t) => t.attempts.flatMap((a) => a.steps.map((s) => s.kind))),
  );
  return [...LEGEND, ...(["check", "retry"] as const).filter((k) => kinds.has(k))];
}

/** Every step of the run: its tasks' and its run-level ones. */
export const stepCount = (trace: Trace) =>
  trace.tasks.reduce(
    (n, t) => n + t.attempts.reduce((m, a) => m + a.steps.length, 0),
    trace.loose.length,
  );

export type Selection =
  | { type: "task"; taskId: string }
  | { type: "attempt"; taskId: string; attempt: number }
  | { type: "step"; key: string };

/** The key of the row a selection names (a row's `key`), "" for none. */
export const keyOf = (s: Selection | null) =>
  !s
    ? ""
    : s.type === "step"
      ? s.key
      : s.type === "task"
        ? `t:${s.taskId}`
        : `a:${s.taskId}:${s.attempt}`;

export function selectionOf(row: TraceRow): Selection {
  if (row.type === "task") return { type: "task", taskId: row.task.taskId };
  if (row.type === "attempt")
    return { type: "attempt", taskId: row.task.taskId, attempt: row.attempt.attempt };
  return { type: "step", key: row.step.key };
}

/** What a key pressed on row `i` does: move focus, open or close its task, or select it. */
export type RowKeyAction = { focus: number } | { open: boolean } | { select: true } | null;

/** ↑/↓/Home/End move, → opens a task, ← closes it (or goes to its task), Enter/Space selects. */
export function rowKeyAction(key: string, rows: TraceRow[], i: number): RowKeyAction {
  const row = rows[i];
  if (!row) return null;
  if (key === "ArrowDown") return { focus: i + 1 };
  if (key === "ArrowUp") return { focus: i - 1 };
  if (key === "Home") return { focus: 0 };
  if (key === "End") return { focus: rows.length - 1 };
  if (key === "ArrowRight" && row.type === "task") return { open: true };
  if (key === "ArrowLeft" && row.type === "task") return { open: false };
  if (key === "ArrowLeft" && row.task)
    return { focus: rows.findIndex((r) => r.type === "task" && r.task === row.task) };
  if (key === "Enter" || key === " ") return { select: true };
  return null;
}
