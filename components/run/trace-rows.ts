import type { Trace, TraceAttempt, TraceStep, TraceTask } from "./trace-types";

// The waterfall's rows in display order: a task, its attempts (when there are several) and their
// steps; a collapsed task shows its own row only.
export type TraceRow =
  | { type: "task"; key: string; depth: 0; task: TraceTask }
  | { type: "attempt"; key: string; depth: 1; task: TraceTask; attempt: TraceAttempt }
  | { type: "step"; key: string; depth: 1 | 2; task: TraceTask | null; step: TraceStep };

export function traceRows(trace: Trace, isOpen: (task: TraceTask) => boolean): TraceRow[] {
  const rows: TraceRow[] = [];
  for (const step of trace.loose)
    rows.push({ type: "step", key: step.key, depth: 1, task: null, step });
  for (const task of trace.tasks) {
    rows.push({ type: "task", key: `t:${task.taskId}`, depth: 0, task });
    if (!isOpen(task)) continue;
    const several = task.attempts.length > 1;
    for (const attempt of task.attempts) {
      if (several)
        rows.push({
          type: "attempt",
          key: `a:${task.taskId}:${attempt.attempt}`,
          depth: 1,
          task,
          attempt,
        });
      for (const step of attempt.steps)
        rows.push({ type: "step", key: step.key, depth: several ? 2 : 1, task, step });
    }
  }
  return rows;
}

/** Round tick steps for an axis `spanMs` wide: about `target` ticks. */
export function axisTicks(spanMs: number, target = 5): number[] {
  if (spanMs <= 0) return [0];
  const raw = spanMs / target;
  const steps = [
    1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000,
    120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 21_600_000, 43_200_000,
    86_400_000,
  ];
  const step = steps.find((s) => s >= raw) ?? Math.ceil(raw / 86_400_000) * 86_400_000;
  const ticks: number[] = [];
  for (let t = 0; t <= spanMs + 1e-6; t += step) ticks.push(t);
  return ticks;
}

/** A tick's label: "0", "500 ms", "2 s", "1 m 30 s", "2 h". */
export function tickLabel(ms: number): string {
  if (ms === 0) return "0";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  const rest = Math.round(s % 60);
  if (m < 60) return rest ? `${m} m ${rest} s` : `${m} m`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} m` : `${h} h`;
}
