"use client";

import { ChevronRight, RotateCcw } from "lucide-react";
import type { CSSProperties, KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { formatDuration } from "@/lib/format/duration";
import { STEP_STYLE } from "./step-style";
import { spanOf } from "./trace-model";
import type { TraceRow } from "./trace-rows";
import type { TraceTask } from "./trace-types";
import { ROW_GRID } from "./waterfall-axis";
import { barPlacement, rowPreview, rowSpan } from "./waterfall-row-model";

export const ROW_HEIGHT = 32;

type WaterfallRowProps = {
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
};

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
}: WaterfallRowProps) {
  const { from, to, label, bar } = rowSpan(row);
  const ms = spanOf(from, to, now);
  const expandable = row.type === "task" && row.task.attempts.length > 0;
  const seqs = row.type === "step" ? row.step.events.map((e) => e.seq) : [];
  const text = rowPreview(row);
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
        <RowMark row={row} open={open} expandable={expandable} onToggle={onToggle} />
        <RowText row={row} label={label} text={text} ms={ms} />
      </div>
      <RowBar
        from={from}
        to={to}
        ms={ms}
        start={start}
        spanMs={spanMs}
        bar={bar}
        task={row.type === "task"}
      />
    </div>
  );
}

/** A task's chevron (it opens and closes), else the step's icon. */
function RowMark({
  row,
  open,
  expandable,
  onToggle,
}: {
  row: TraceRow;
  open: boolean;
  expandable: boolean;
  onToggle: (row: TraceRow) => void;
}) {
  if (row.type === "task")
    return (
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
    );
  const Icon = row.type === "step" ? STEP_STYLE[row.step.kind].icon : null;
  return Icon ? <Icon aria-hidden className="size-3.5 shrink-0 text-muted-foreground" /> : null;
}

/** The label, or its short form on screen with the whole read out and in the title. */
function RowLabel({ label, short }: { label: string; short: string | undefined }) {
  if (!short) return label;
  return (
    <>
      <span aria-hidden title={label}>
        {short}
      </span>
      <span className="sr-only">{label}</span>
    </>
  );
}

/** A task's attempts, whether it was stopped, and its retries after failed checks. */
function TaskMarks({ task }: { task: TraceTask }) {
  return (
    <>
      {task.attempts.length > 1 && (
        <span className="shrink-0 text-muted-foreground text-xs">
          <span aria-hidden>×{task.attempts.length}</span>
          <span className="sr-only">{task.attempts.length} attempts</span>
        </span>
      )}
      {task.status === "cancelled" && (
        <span className="shrink-0 rounded-sm bg-muted px-1 text-muted-foreground text-xs">
          Stopped
        </span>
      )}
      {task.retries > 0 && (
        <span className="inline-flex shrink-0 items-center gap-0.5 rounded-sm bg-chart-2/15 px-1 text-xs">
          <RotateCcw aria-hidden className="size-3" />
          <span aria-hidden>{task.retries}</span>
          <span className="sr-only">
            {task.retries} {task.retries === 1 ? "retry" : "retries"} after a failed check
          </span>
        </span>
      )}
    </>
  );
}

function RowBar({
  from,
  to,
  ms,
  start,
  spanMs,
  bar,
  task,
}: {
  from: number | null;
  to: number | null;
  ms: number | null;
  start: number;
  spanMs: number;
  bar: string;
  task: boolean;
}) {
  const { left, width } = barPlacement(from, ms, start, spanMs);
  const ongoing = to === null && from !== null;
  return (
    <div className="relative mr-5 h-full" aria-hidden>
      {from !== null && (
        <span
          className={cn(
            "absolute top-1/2 h-2.5 min-w-0.5 -translate-y-1/2 rounded-sm",
            bar,
            task && "h-3",
            ongoing && "opacity-80",
          )}
          style={{ left: `${left}%`, width: `max(2px, ${width}%)` }}
        />
      )}
    </div>
  );
}

/** The row's label, a task's marks, the step's preview and how long it took. */
function RowText({
  row,
  label,
  text,
  ms,
}: {
  row: TraceRow;
  label: string;
  text: string;
  ms: number | null;
}) {
  return (
    <>
      <span
        className={cn(
          // Shrinks (truncated) before the duration does: a long name never pushes it out.
          "min-w-0 truncate",
          // A step with nothing to preview (a review waiting, with its tally) takes the room.
          row.type === "task" ? "max-w-[70%] font-medium" : text ? "max-w-[60%]" : "max-w-full",
          row.type === "step" && row.step.kind === "tool" && "font-mono text-xs",
        )}
      >
        <RowLabel label={label} short={row.type === "step" ? row.step.short : undefined} />
      </span>
      {row.type === "task" && <TaskMarks task={row.task} />}
      <span className="min-w-0 flex-1 truncate text-muted-foreground text-xs max-sm:invisible">
        {text}
      </span>
      <span className="shrink-0 whitespace-nowrap text-muted-foreground text-xs tabular-nums">
        {ms === null ? (row.type === "task" ? "Not started" : "") : formatDuration(ms / 1000)}
      </span>
    </>
  );
}
