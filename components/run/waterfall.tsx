"use client";

import { ChevronsDownUp, ChevronsUpDown } from "lucide-react";
import {
  type KeyboardEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/lib/format/numbers";
import { LEGEND, STEP_STYLE } from "./step-style";
import { type TraceRow, traceRows } from "./trace-rows";
import type { StepKind, Trace, TraceTask } from "./trace-types";
import { useRowWindow } from "./use-row-window";
import { WaterfallAxis, WaterfallGrid } from "./waterfall-axis";
import { ROW_HEIGHT, WaterfallRow } from "./waterfall-row";

// Output checks join the legend only on runs that have them.
function legendFor(trace: Trace): StepKind[] {
  const kinds = new Set(
    trace.tasks.flatMap((t) => t.attempts.flatMap((a) => a.steps.map((s) => s.kind))),
  );
  return [...LEGEND, ...(["check", "retry"] as const).filter((k) => kinds.has(k))];
}

export type Selection =
  | { type: "task"; taskId: string }
  | { type: "attempt"; taskId: string; attempt: number }
  | { type: "step"; key: string };

const keyOf = (s: Selection | null) =>
  !s
    ? ""
    : s.type === "step"
      ? s.key
      : s.type === "task"
        ? `t:${s.taskId}`
        : `a:${s.taskId}:${s.attempt}`;

function selectionOf(row: TraceRow): Selection {
  if (row.type === "task") return { type: "task", taskId: row.task.taskId };
  if (row.type === "attempt")
    return { type: "attempt", taskId: row.task.taskId, attempt: row.attempt.attempt };
  return { type: "step", key: row.step.key };
}

/**
 * Tasks → attempts → steps as bars on one time axis. Finished tasks start collapsed; only the
 * rows in view are in the DOM (a 5,000-step run stays as light as a short one). Keyboard: ↑/↓
 * move, → opens a task, ← closes it (or goes to its task), Enter/Space selects.
 */
export function Waterfall({
  trace,
  now,
  follow,
  selected,
  onSelect,
}: {
  trace: Trace;
  now: number;
  /** While the run goes on, keep its newest row in view unless the reader scrolled away. */
  follow: boolean;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
}) {
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});
  const isOpen = useCallback(
    (t: TraceTask) => overrides[t.taskId] ?? t.status !== "completed",
    [overrides],
  );
  const rows = useMemo(() => traceRows(trace, isOpen), [trace, isOpen]);
  const steps = useMemo(
    () =>
      trace.tasks.reduce(
        (n, t) => n + t.attempts.reduce((m, a) => m + a.steps.length, 0),
        trace.loose.length,
      ),
    [trace],
  );
  const spanMs = Math.max(1, (trace.end ?? now) - trace.start);
  const scroller = useRef<HTMLDivElement>(null);
  const rowWindow = useRowWindow({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    overscan: 24,
    scroller,
    // Rendered on the server too: the first rows are in the HTML.
    initialHeight: 576,
  });
  // At the bottom before new rows arrive → still at the bottom after (a live tail).
  const atBottom = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, []);
  useLayoutEffect(() => {
    if (follow && atBottom.current && rows.length) rowWindow.scrollToIndex(rows.length - 1);
  }, [follow, rows.length, rowWindow.scrollToIndex]);
  const selectedKey = keyOf(selected);
  const [focusIndex, setFocusIndex] = useState(0);
  const focusable = Math.min(focusIndex, Math.max(0, rows.length - 1));

  const toggle = (t: TraceTask, open = !isOpen(t)) =>
    setOverrides((o) => ({ ...o, [t.taskId]: open }));
  const setAll = (open: boolean) =>
    setOverrides(Object.fromEntries(trace.tasks.map((t) => [t.taskId, open])));
  const allOpen = trace.tasks.length > 0 && trace.tasks.every(isOpen);

  const select = (row: TraceRow) => {
    const i = rows.indexOf(row);
    if (i >= 0) setFocusIndex(i);
    // Selecting a task opens it; only its chevron (or ←) closes it.
    if (row.type === "task" && !isOpen(row.task)) toggle(row.task, true);
    onSelect(selectionOf(row));
  };
  const focusRow = (i: number) => {
    const to = Math.max(0, Math.min(rows.length - 1, i));
    setFocusIndex(to);
    rowWindow.scrollToIndex(to);
    const rowAt = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${to}"]`);
    // A row on screen takes focus now, so a key pressed right after (Enter) lands on it; one
    // outside the window is focused once the window has rendered it.
    const shown = rowAt();
    if (shown) shown.focus();
    else requestAnimationFrame(() => rowAt()?.focus());
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const row = rows[i];
    if (!row) return;
    const key = e.key;
    if (key === "ArrowDown") focusRow(i + 1);
    else if (key === "ArrowUp") focusRow(i - 1);
    else if (key === "Home") focusRow(0);
    else if (key === "End") focusRow(rows.length - 1);
    else if (key === "ArrowRight" && row.type === "task") toggle(row.task, true);
    else if (key === "ArrowLeft" && row.type === "task") toggle(row.task, false);
    else if (key === "ArrowLeft" && row.task) {
      const parent = rows.findIndex((r) => r.type === "task" && r.task === row.task);
      focusRow(parent);
    } else if (key === "Enter" || key === " ") select(row);
    else return;
    e.preventDefault();
  };

  const total = rowWindow.total;
  const visible = rows.slice(rowWindow.first, rowWindow.last);
  return (
    <section aria-labelledby="trace-title" className="min-w-0 rounded-xl border bg-card">
      <div className="flex flex-wrap items-center justify-between gap-2 px-4 pt-3 pb-2">
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 id="trace-title" className="m-0 font-semibold text-base">
            Trace
          </h2>
          <p className="text-muted-foreground text-xs">
            {trace.tasks.length} {trace.tasks.length === 1 ? "task" : "tasks"} ·{" "}
            {formatCount(steps)} {steps === 1 ? "step" : "steps"}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <ul className="hidden items-center gap-3 whitespace-nowrap text-muted-foreground text-xs md:flex">
            {legendFor(trace).map((k) => (
              <li key={k} className="flex items-center gap-1.5">
                <span aria-hidden className={cn("size-2.5 rounded-sm", STEP_STYLE[k].bar)} />
                {STEP_STYLE[k].name}
              </li>
            ))}
          </ul>
          {trace.tasks.length > 0 && (
            <Button size="sm" variant="ghost" onClick={() => setAll(!allOpen)}>
              {allOpen ? <ChevronsDownUp aria-hidden /> : <ChevronsUpDown aria-hidden />}
              {allOpen ? "Collapse all" : "Expand all"}
            </Button>
          )}
        </div>
      </div>
      <WaterfallAxis spanMs={spanMs} />
      <div
        ref={scroller}
        data-testid="waterfall"
        className="relative max-h-[min(36rem,70dvh)] overflow-y-auto overscroll-contain"
      >
        <div
          role="tree"
          aria-label="Tasks and steps on a time axis"
          className="relative"
          style={{ height: total }}
        >
          <WaterfallGrid spanMs={spanMs} height={total} />
          {visible.map((row, i) => {
            const index = rowWindow.first + i;
            return (
              <WaterfallRow
                key={row.key}
                row={row}
                index={index}
                start={trace.start}
                spanMs={spanMs}
                now={now}
                open={row.type === "task" ? isOpen(row.task) : false}
                selected={row.key === selectedKey}
                focusable={index === focusable}
                style={{ height: ROW_HEIGHT, transform: `translateY(${index * ROW_HEIGHT}px)` }}
                onSelect={select}
                onToggle={(r) => r.type === "task" && toggle(r.task)}
                onKeyDown={onKeyDown}
              />
            );
          })}
        </div>
        {rows.length === 0 && (
          <p className="px-4 py-6 text-center text-muted-foreground text-sm">
            No steps yet: the first appear here as soon as the run starts.
          </p>
        )}
      </div>
    </section>
  );
}
