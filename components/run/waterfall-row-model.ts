import { STEP_STYLE } from "./step-style";
import type { TraceRow } from "./trace-rows";

// What a waterfall row (waterfall-row.tsx) shows: its span, label, bar colour and preview.

const TASK_BAR: Record<string, string> = {
  completed: "bg-primary/70",
  running: "bg-primary/70 motion-safe:animate-pulse",
  pending_human_input: "bg-chart-5",
  error: "bg-chart-2",
};

/** A row's start and end, its label, and its bar's colour class. */
export function rowSpan(row: TraceRow): {
  from: number | null;
  to: number | null;
  label: string;
  bar: string;
} {
  if (row.type === "task")
    return {
      from: row.task.start,
      to: row.task.end,
      label: row.task.name,
      bar: TASK_BAR[row.task.status] ?? "bg-muted-foreground/40",
    };
  if (row.type === "attempt")
    return {
      from: row.attempt.start,
      to: row.attempt.end,
      label: `Attempt ${row.attempt.attempt}`,
      bar: "bg-primary/40",
    };
  return {
    from: row.step.start,
    to: row.step.end,
    label: row.step.label,
    bar: STEP_STYLE[row.step.kind].bar,
  };
}

/**
 * Where a bar sits on the axis, in percent. A live bar grows with the clock, a failed one may
 * end after the last event: each stays on the axis, however the span and the clock disagree.
 */
export function barPlacement(
  from: number | null,
  ms: number | null,
  start: number,
  spanMs: number,
) {
  const left = from === null ? 0 : Math.min(100, Math.max(0, ((from - start) / spanMs) * 100));
  const width = ms === null ? 0 : Math.min((ms / spanMs) * 100, 100 - left);
  return { left, width };
}

/** A step's text in brief: what it said, why a check failed, a reviewer's feedback. */
export function rowPreview(row: TraceRow): string {
  if (row.type !== "step") return "";
  const d = row.step.events[0]?.data ?? {};
  // A failure's error is said once, above the trace (and in full in the step's detail).
  const text = typeof d.text === "string" ? d.text : "";
  if (text) return text.replace(/[#*_`>]/g, "").slice(0, 120);
  if (row.step.kind === "check" || row.step.kind === "retry") {
    const why = Array.isArray(d.errors) ? d.errors.join("; ") : d.reason;
    return typeof why === "string" ? why.slice(0, 120) : "";
  }
  if (row.step.kind === "review") {
    const fb = row.step.events[1]?.data.feedback;
    return typeof fb === "string" ? fb.slice(0, 120) : "";
  }
  return "";
}
