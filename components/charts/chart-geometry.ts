import type { ChartColor } from "./colors";
import { linear, niceTicks, type TickUnit } from "./scale";

// Where a per-day chart (time-chart.tsx) draws things: its axes, bands, bars, lines and tooltip.

export type ChartSeries = {
  key: string;
  label: string;
  color: ChartColor;
  /** One value per day; null where there is nothing to show (no line point, no bar). */
  values: (number | null)[];
};

export type ChartKind = "stacked" | "lines";

export const MARGIN = { top: 10, right: 8, bottom: 24, left: 48 };

/** A day's height on the y axis: its stacked sum, or its highest line. */
export function dayTotals(days: string[], series: ChartSeries[], kind: ChartKind): number[] {
  return days.map((_, i) =>
    kind === "stacked"
      ? series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0)
      : Math.max(0, ...series.map((s) => s.values[i] ?? 0)),
  );
}

export type Geometry = {
  width: number;
  height: number;
  ticks: number[];
  innerH: number;
  /** The width of one day. */
  band: number;
  barW: number;
  /** Every how many days a date is written below (the latest day always is). */
  labelEvery: number;
  x: (day: number) => number;
  y: (value: number) => number;
};

export function chartGeometry(
  { width, height, dayCount }: { width: number; height: number; dayCount: number },
  { highest, unit }: { highest: number; unit: TickUnit | undefined },
): Geometry {
  const ticks = niceTicks(highest, 4, unit);
  const innerW = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerH = height - MARGIN.top - MARGIN.bottom;
  const band = dayCount ? innerW / dayCount : 0;
  return {
    width,
    height,
    ticks,
    innerH,
    band,
    barW: Math.max(2, Math.min(28, band * 0.62)),
    labelEvery: Math.max(1, Math.ceil(dayCount / Math.max(1, Math.floor(innerW / 56)))),
    x: (i) => MARGIN.left + band * i + band / 2,
    y: linear(ticks.at(-1) ?? 1, MARGIN.top + innerH, MARGIN.top),
  };
}

/** A line's SVG paths: one per run of days with a value (a null breaks the line). */
export function lineSegments(values: (number | null)[], g: Pick<Geometry, "x" | "y">): string[] {
  const out: string[] = [];
  let d = "";
  values.forEach((v, i) => {
    if (v === null) {
      if (d) out.push(d);
      d = "";
      return;
    }
    d += `${d ? "L" : "M"}${g.x(i).toFixed(1)},${g.y(v).toFixed(1)}`;
  });
  if (d) out.push(d);
  return out;
}

/** One day's stacked bar: each series with a value above the ones before it. */
export function stackedBar(series: ChartSeries[], day: number, y: Geometry["y"]) {
  let base = 0;
  const parts: { series: ChartSeries; top: number; height: number }[] = [];
  for (const s of series) {
    const v = s.values[day] ?? 0;
    if (v <= 0) continue;
    const y0 = y(base);
    base += v;
    const y1 = y(base);
    parts.push({ series: s, top: y1, height: Math.max(1, y0 - y1 - 0.5) });
  }
  return parts;
}

export const isEmptyChart = (series: ChartSeries[]) =>
  series.every((s) => s.values.every((v) => v === null || v === 0));

/** The day under the pointer, `left` pixels from the chart's left edge; null outside the days. */
export function dayUnder(left: number, band: number, dayCount: number): number | null {
  const i = Math.floor((left - MARGIN.left) / (band || 1));
  return i >= 0 && i < dayCount ? i : null;
}

export const showsDate = (i: number, dayCount: number, labelEvery: number) =>
  (dayCount - 1 - i) % labelEvery === 0;

/** The tooltip sits beside the day, on the side with more room. */
export function tooltipSide(day: number, g: Pick<Geometry, "x" | "width" | "band">) {
  const at = g.x(day);
  return at > g.width / 2
    ? { right: g.width - at + g.band / 2 + 4 }
    : { left: at + g.band / 2 + 4 };
}
