import { axisTicks, tickLabel } from "./trace-rows";

// The label column and the time track share this grid on every row, the axis and the gridlines.
export const ROW_GRID =
  "grid grid-cols-[minmax(0,11fr)_minmax(0,9fr)] sm:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]";

/** Tick labels over the time track: 0 at the run's start. */
export function WaterfallAxis({ spanMs }: { spanMs: number }) {
  const ticks = axisTicks(spanMs);
  return (
    <div className={`${ROW_GRID} h-7 border-b text-muted-foreground text-xs`} aria-hidden>
      <div className="flex items-center px-3">Task / step</div>
      <div className="relative mr-5">
        {ticks.map((t, i) => (
          <span
            key={t}
            className={`absolute top-1/2 -translate-y-1/2 whitespace-nowrap tabular-nums ${
              i === 0 ? "" : "-translate-x-1/2"
            } ${i % 2 === 1 ? "max-sm:hidden" : ""}`}
            style={{ left: `${(t / spanMs) * 100}%` }}
          >
            {tickLabel(t)}
          </span>
        ))}
      </div>
    </div>
  );
}

/** Faint vertical lines at each tick, behind the rows. */
export function WaterfallGrid({ spanMs, height }: { spanMs: number; height: number }) {
  const ticks = axisTicks(spanMs);
  return (
    <div
      className={`${ROW_GRID} pointer-events-none absolute inset-x-0 top-0`}
      style={{ height }}
      aria-hidden
    >
      <div />
      <div className="relative mr-5">
        {ticks.map((t) => (
          <span
            key={t}
            className="absolute inset-y-0 w-px bg-border"
            style={{ left: `${(t / spanMs) * 100}%` }}
          />
        ))}
      </div>
    </div>
  );
}
