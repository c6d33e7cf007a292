"use client";

import { type RefObject, useCallback, useLayoutEffect, useState } from "react";

// Windowing for rows of one fixed height: only the rows in view (plus `overscan` either side) are
// rendered, positioned by index × height. The waterfall's rows never change height, so this is
// all the virtualisation it needs — a general virtualiser (variable sizes, measuring) would be
// ~10 kB gzip of the run page's first load for nothing.
export function useRowWindow({
  count,
  rowHeight,
  overscan,
  scroller,
  initialHeight,
}: {
  count: number;
  rowHeight: number;
  overscan: number;
  scroller: RefObject<HTMLElement | null>;
  /** The viewport assumed before the element is measured (the server's render). */
  initialHeight: number;
}) {
  const [view, setView] = useState({ top: 0, height: initialHeight });

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const read = () =>
      setView((v) =>
        v.top === el.scrollTop && v.height === el.clientHeight
          ? v
          : { top: el.scrollTop, height: el.clientHeight },
      );
    read();
    el.addEventListener("scroll", read, { passive: true });
    const resize = new ResizeObserver(read);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", read);
      resize.disconnect();
    };
  }, [scroller]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + overscan);

  /** Scrolls the least distance that shows row `index` whole. */
  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scroller.current;
      if (!el) return;
      const top = index * rowHeight;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + rowHeight > el.scrollTop + el.clientHeight)
        el.scrollTop = top + rowHeight - el.clientHeight;
    },
    [scroller, rowHeight],
  );

  return { first, last, total: count * rowHeight, scrollToIndex };
}
