import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { TraceRow } from "./trace-rows";
import type { Trace, TraceTask } from "./trace-types";
import { rowKeyAction, type Selection, selectionOf } from "./waterfall-model";
import { ROW_HEIGHT } from "./waterfall-row";

// The waterfall's state (waterfall.tsx): which tasks are open, the live tail, keyboard focus.

/** Finished tasks start collapsed; a task opened or closed by hand stays so. */
export function useOpenTasks(trace: Trace) {
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});
  const isOpen = useCallback(
    (t: TraceTask) => overrides[t.taskId] ?? t.status !== "completed",
    [overrides],
  );
  const toggle = (t: TraceTask, open = !isOpen(t)) =>
    setOverrides((o) => ({ ...o, [t.taskId]: open }));
  const setAll = (open: boolean) =>
    setOverrides(Object.fromEntries(trace.tasks.map((t) => [t.taskId, open])));
  const allOpen = trace.tasks.length > 0 && trace.tasks.every(isOpen);
  return { isOpen, toggle, setAll, allOpen };
}

/** At the bottom before new rows arrive → still at the bottom after (a live tail). */
export function useLiveTail(
  scroller: RefObject<HTMLDivElement | null>,
  follow: boolean,
  count: number,
  scrollToIndex: (i: number) => void,
) {
  const atBottom = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [scroller]);
  useLayoutEffect(() => {
    if (follow && atBottom.current && count) scrollToIndex(count - 1);
  }, [follow, count, scrollToIndex]);
}

/** The row that takes Tab (one per tree), moved by the keys of rowKeyAction, and selecting. */
export function useRowKeys({
  rows,
  scroller,
  scrollToIndex,
  isOpen,
  toggle,
  onSelect,
}: {
  rows: TraceRow[];
  scroller: RefObject<HTMLDivElement | null>;
  scrollToIndex: (i: number) => void;
  isOpen: (t: TraceTask) => boolean;
  toggle: (t: TraceTask, open?: boolean) => void;
  onSelect: (s: Selection) => void;
}) {
  const [focusIndex, setFocusIndex] = useState(0);
  const focusable = Math.min(focusIndex, Math.max(0, rows.length - 1));
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
    scrollToIndex(to);
    const rowAt = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${to}"]`);
    // A row on screen takes focus now, so a key pressed right after (Enter) lands on it; one
    // outside the window is focused once the window has rendered it.
    const shown = rowAt();
    if (shown) shown.focus();
    else requestAnimationFrame(() => rowAt()?.focus());
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const row = rows[i];
    const action = rowKeyAction(e.key, rows, i);
    if (!row || !action) return;
    if ("focus" in action) focusRow(action.focus);
    else if ("select" in action) select(row);
    else if (row.type === "task") toggle(row.task, action.open);
    e.preventDefault();
  };
  return { focusable, select, onKeyDown };
}
