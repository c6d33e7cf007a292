"use client";

import { useState } from "react";
import {
  type ChartKind,
  type ChartSeries,
  chartGeometry,
  dayTotals,
  dayUnder,
  isEmptyChart,
  MARGIN,
} from "./chart-geometry";
import type { TickUnit } from "./scale";
import {
  ChartLegend,
  ChartTable,
  DayLabels,
  DayTooltip,
  SeriesLines,
  StackedBars,
  YAxis,
} from "./time-chart-parts";
import { useWidth } from "./use-width";

export type TimeChartProps = {
  /** YYYY-MM-DD, oldest first. */
  days: string[];
  series: ChartSeries[];
  kind: ChartKind;
  /** Formats a value for the axis, the tooltip and the table. */
  format: (v: number) => string;
  /** What the chart shows in a sentence, read out for the image. */
  summary: string;
  /** Forces the top of the y axis (a rate's 100%). */
  max?: number;
  /** What the y axis counts, for round ticks (whole runs; seconds as 1 m, 2 m). */
  unit?: TickUnit;
  height?: number;
  /** Said over the plot when every value is empty or zero. */
  emptyLabel?: string;
};

/**
 * A per-day chart drawn in SVG: y axis with round ticks and grid, dates below, bars stacked by
 * series or one line per series, a tooltip for the day under the pointer, and the same numbers in
 * a visually hidden table for screen readers.
 */
export function TimeChart({
  days,
  series,
  kind,
  format,
  unit,
  summary,
  max,
  height = 180,
  emptyLabel = "Nothing recorded in these days",
}: TimeChartProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const highest = max ?? Math.max(0, ...dayTotals(days, series, kind));
  const g = chartGeometry({ width, height, dayCount: days.length }, { highest, unit });
  const activeDay = active === null ? undefined : days[active];
  return (
    <div className="grid min-w-0 gap-2">
      <ChartLegend series={series} kind={kind} />
      <div ref={ref} className="relative w-full" style={{ height }}>
        {width > 0 && (
          <svg
            width={width}
            height={height}
            role="img"
            aria-label={summary}
            className="absolute inset-0 block overflow-visible"
            onMouseMove={(e) => {
              const left = e.clientX - e.currentTarget.getBoundingClientRect().left;
              setActive(dayUnder(left, g.band, days.length));
            }}
            onMouseLeave={() => setActive(null)}
          >
            <YAxis g={g} format={format} />
            <DayLabels g={g} days={days} />
            {active !== null && (
              <rect
                x={MARGIN.left + g.band * active}
                y={MARGIN.top}
                width={g.band}
                height={g.innerH}
                className="fill-muted"
              />
            )}
            {kind === "stacked" && <StackedBars g={g} days={days} series={series} />}
            {kind === "lines" && <SeriesLines g={g} series={series} active={active} />}
          </svg>
        )}
        {isEmptyChart(series) && (
          <p className="absolute inset-x-0 top-1/2 -translate-y-1/2 pl-12 text-center text-muted-foreground text-xs">
            {emptyLabel}
          </p>
        )}
        {activeDay !== undefined && active !== null && (
          <DayTooltip g={g} day={activeDay} active={active} series={series} format={format} />
        )}
      </div>
      <ChartTable summary={summary} days={days} series={series} format={format} />
    </div>
  );
}
