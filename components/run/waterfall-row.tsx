"use client";

import { ChevronRight, RotateCcw } from "lucide-react";
import type { CSSProperties, KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "@/lib/format/duration";
import { STEP_STYLE } from "./step-style";
import { spanOf } from "./trace-model";
import type { TraceRow } from "./trace-rows";
import { ROW_GRID } from "./waterfall-axis";

export const ROW_HEIGHT = 32;

const TASK_BAR: Record<string, string> = {
  completed: "bg-primary/70",
  running: "bg-primary/70 motion-safe:animate-pulse",
  pending_human_input: "bg-chart-5",
  error: "bg-chart-2",
};

function preview(row: TraceRow): string {
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

/** One line of the waterfall: what it is on the left, its bar on the shared time axis. */
export function WaterfallRow({
  row,
  index,
  start,
  spanMs,
  now,
  open,
  selected,
  focusable,
  style,
  onSelect,
  onToggle,
  onKeyDown,
}: {
  row: TraceRow;
  index: number;
  start: number;
  spanMs: number;
  now: number;
  open: boolean;
  selected: boolean;
  focusable: boolean;
  style: CSSProperties;
  onSelect: (row: TraceRow) => void;
  onToggle: (row: TraceRow) => void;
  onKeyDown: (e: KeyboardEvent, index: number) => void;
}) {
  const [from, to, label, bar] =
    row.type === "task"
      ? [
          row.task.start,
          row.task.end,
          row.task.name,
          TASK_BAR[row.task.status] ?? "bg-muted-foreground/40",
        ]
      : row.type === "attempt"
        ? [row.attempt.start, row.attempt.end, `Attempt ${row.attempt.attempt}`, "bg-primary/40"]
        : [row.step.start, row.step.end, row.step.label, STEP_STYLE[row.step.kind].bar];
  const ms = spanOf(from, to, now);
  // A live bar grows with the clock, a failed one may end after the last event: each stays on
  // the axis, however the span and the clock disagree.
  const left = from === null ? 0 : Math.min(100, Math.max(0, ((from - start) / spanMs) * 100));
  const width = ms === null ? 0 : Math.min((ms / spanMs) * 100, 100 - left);
  const Icon = row.type === "step" ? STEP_STYLE[row.step.kind].icon : null;
  const short = row.type === "step" ? row.step.short : undefined;
  const expandable = row.type === "task" && row.task.attempts.length > 0;
  const seqs = row.type === "step" ? row.step.events.map((e) => e.seq) : [];
  const text = preview(row);
  const ongoing = to === null && from !== null;

  return (
    <div
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={expandable ? open : undefined}
      aria-selected={selected}
      tabIndex={focusable ? 0 : -1}
      data-index={index}
      data-seq={seqs[0]}
      data-row={row.type}
      onClick={() => onSelect(row)}
      onKeyDown={(e) => onKeyDown(e, index)}
      style={style}
      className={cn(
        ROW_GRID,
        "absolute inset-x-0 top-0 cursor-pointer items-center text-sm outline-none hover:bg-muted/60 focus-visible:bg-muted focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
        selected && "bg-accent hover:bg-accent",
        row.type === "task" && "border-t first:border-t-0",
      )}
    >
      {/* Later events of the same step (a tool's result) mark their arrival too. */}
      {seqs.slice(1).map((s) => (
        <span key={s} data-seq={s} hidden />
      ))}
      <div
        className="flex min-w-0 items-center gap-1.5 pr-2"
        style={{ paddingLeft: `${0.5 + row.depth * 1.1}rem` }}
      >
        {row.type === "task" ? (
          // The chevron opens and closes; the rest of the row selects (and opens, never closes).
          // Keyboard: → and ← on the row.
          <span
            aria-hidden
            data-toggle
            className="-m-1 shrink-0 rounded p-1 hover:bg-muted"
            onClick={(e) => {
              e.stopPropagation();
              onToggle(row);
            }}
          >
            <ChevronRight
              className={cn(
                "size-4 text-muted-foreground transition-transform",
                open && "rotate-90",
                !expandable && "invisible",
              )}
            />
          </span>
        ) : Icon ? (
          <Icon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
        ) : null}
        <span
          className={cn(
            // Shrinks (truncated) before the duration does: a long name never pushes it out.
            "min-w-0 truncate",
            // A step with nothing to preview (a review waiting, with its tally) takes the room.
            row.type === "task" ? "max-w-[70%] font-medium" : text ? "max-w-[60%]" : "max-w-full",
            row.type === "step" && row.step.kind === "tool" && "font-mono text-xs",
          )}
        >
          {short ? (
            <>
              <span aria-hidden title={label}>
                {short}
              </span>
              <span className="sr-only">{label}</span>
            </>
          ) : (
            label
          )}
        </span>
        {row.type === "task" && row.task.attempts.length > 1 && (
          <span className="shrink-0 text-muted-foreground text-xs">
            <span aria-hidden>×{row.task.attempts.length}</span>
            <span className="sr-only">{row.task.attempts.length} attempts</span>
          </span>
        )}
        {row.type === "task" && row.task.status === "cancelled" && (
          <span className="shrink-0 rounded-sm bg-muted px-1 text-muted-foreground text-xs">
            Stopped
          </span>
        )}
        {row.type === "task" && row.task.retries > 0 && (
          <span className="inline-flex shrink-0 items-center gap-0.5 rounded-sm bg-chart-2/15 px-1 text-xs">
            <RotateCcw aria-hidden className="size-3" />
            <span aria-hidden>{row.task.retries}</span>
            <span className="sr-only">
              {row.task.retries} {row.task.retries === 1 ? "retry" : "retries"} after a failed check
            </span>
          </span>
        )}
        <span className="min-w-0 flex-1 truncate text-muted-foreground text-xs max-sm:invisible">
          {text}
        </span>
        <span className="shrink-0 whitespace-nowrap text-muted-foreground text-xs tabular-nums">
          {ms === null ? (row.type === "task" ? "Not started" : "") : formatDuration(ms / 1000)}
        </span>
      </div>
      <div className="relative mr-5 h-full" aria-hidden>
        {from !== null && (
          <span
            className={cn(
              "absolute top-1/2 h-2.5 min-w-0.5 -translate-y-1/2 rounded-sm",
              bar,
              row.type === "task" && "h-3",
              ongoing && "opacity-80",
            )}
            style={{ left: `${left}%`, width: `max(2px, ${width}%)` }}
          />
        )}
      </div>
    </div>
  );
}
