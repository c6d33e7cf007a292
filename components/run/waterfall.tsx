"use client";

import { useMemo, useRef } from "react";
import { traceRows } from "./trace-rows";
import type { Trace } from "./trace-types";
import { useRowWindow } from "./use-row-window";
import { useLiveTail, useOpenTasks, useRowKeys } from "./use-waterfall";
import { WaterfallAxis, WaterfallGrid } from "./waterfall-axis";
import { WaterfallHeader } from "./waterfall-header";
import { keyOf, type Selection } from "./waterfall-model";
import { ROW_HEIGHT, WaterfallRow } from "./waterfall-row";

type WaterfallProps = {
  trace: Trace;
  now: number;
  /** While the run goes on, keep its newest row in view unless the reader scrolled away. */
  follow: boolean;
  selected: Selection | null;
  onSelect: (s: Selection) => void;
};

/**
 * Tasks → attempts → steps as bars on one time axis. Finished tasks start collapsed; only the
 * rows in view are in the DOM (a 5,000-step run stays as light as a short one). Keyboard: ↑/↓
 * move, → opens a task, ← closes it (or goes to its task), Enter/Space selects.
 */
export function Waterfall({ trace, now, follow, selected, onSelect }: WaterfallProps) {
  const { isOpen, toggle, setAll, allOpen } = useOpenTasks(trace);
  const rows = useMemo(() => traceRows(trace, isOpen), [trace, isOpen]);
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
  useLiveTail(scroller, follow, rows.length, rowWindow.scrollToIndex);
  const { scrollToIndex } = rowWindow;
  const keys = useRowKeys({ rows, scroller, scrollToIndex, isOpen, toggle, onSelect });
  const selectedKey = keyOf(selected);
  const total = rowWindow.total;
  const visible = rows.slice(rowWindow.first, rowWindow.last);
  return (
    <section aria-labelledby="trace-title" className="min-w-0 rounded-xl border bg-card">
      <WaterfallHeader trace={trace} allOpen={allOpen} onSetAll={setAll} />
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
                focusable={index === keys.focusable}
                style={{ height: ROW_HEIGHT, transform: `translateY(${index * ROW_HEIGHT}px)` }}
                onSelect={keys.select}
                onToggle={(r) => r.type === "task" && toggle(r.task)}
                onKeyDown={keys.onKeyDown}
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
