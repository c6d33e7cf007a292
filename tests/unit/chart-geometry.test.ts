import { describe, expect, it } from "vitest";
import {
  type ChartSeries,
  chartGeometry,
  dayTotals,
  dayUnder,
  isEmptyChart,
  lineSegments,
  showsDate,
  stackedBar,
  tooltipSide,
} from "@/components/charts/chart-geometry";

// Where the per-day chart draws its days, bars, lines and tooltip.
const s = (key: string, values: (number | null)[]): ChartSeries => ({
  key,
  label: key,
  color: "chart-1",
  values,
});
const days = ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"];

describe("the per-day chart's geometry", () => {
  it("stacks a day's values, or takes its highest line", () => {
    const series = [s("a", [1, null, 3, 0]), s("b", [2, 5, null, 0])];
    expect(dayTotals(days, series, "stacked")).toEqual([3, 5, 3, 0]);
    expect(dayTotals(days, series, "lines")).toEqual([2, 5, 3, 0]);
    expect(dayTotals(days, [s("n", [-2, null, null, null])], "lines")[0]).toBe(0);
  });

  it("gives each day a band between the margins and maps values onto the plot", () => {
    // 4 days over 456 − 48 − 8 = 400 px: 100 px each; 140 px high inside 10 and 24 of margin.
    const g = chartGeometry(
      { width: 456, height: 174, dayCount: 4 },
      { highest: 7, unit: "count" },
    );
    expect(g.ticks).toEqual([0, 2, 4, 6, 8]);
    expect([g.band, g.innerH, g.barW]).toEqual([100, 140, 28]);
    expect([g.x(0), g.x(3)]).toEqual([98, 398]);
    expect([g.y(0), g.y(8), g.y(4)]).toEqual([150, 10, 80]);
    expect(g.labelEvery).toBe(1);
    const narrow = chartGeometry(
      { width: 100, height: 174, dayCount: 30 },
      { highest: 1, unit: undefined },
    );
    // 44 px hold no date at 56 px each: one label in 30 days, and bars 2 px wide.
    expect(narrow.labelEvery).toBe(30);
    expect(narrow.barW).toBe(2);
    expect(
      chartGeometry({ width: 0, height: 100, dayCount: 0 }, { highest: 0, unit: undefined }).band,
    ).toBe(0);
  });

  it("labels the latest day, then every labelEvery days back", () => {
    expect([0, 1, 2, 3, 4].map((i) => showsDate(i, 5, 2))).toEqual([
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it("breaks a line where a day has no value", () => {
    const g = { x: (i: number) => i * 10, y: (v: number) => 100 - v };
    expect(lineSegments([1, 2, null, 4, null], g)).toEqual(["M0.0,99.0L10.0,98.0", "M30.0,96.0"]);
    expect(lineSegments([null, null], g)).toEqual([]);
  });

  it("stacks each series with a value above the ones before it, at least a pixel high", () => {
    const y = (v: number) => 100 - v * 10;
    const parts = stackedBar([s("a", [2]), s("b", [0]), s("c", [null]), s("d", [0.01])], 0, y);
    expect(parts.map((p) => [p.series.key, p.top, p.height])).toEqual([
      ["a", 80, 19.5],
      ["d", 79.9, 1],
    ]);
  });

  it("is empty when every value is missing or zero", () => {
    expect(isEmptyChart([s("a", [null, 0])])).toBe(true);
    expect(isEmptyChart([s("a", [null, 0]), s("b", [1])])).toBe(false);
    expect(isEmptyChart([])).toBe(true);
  });

  it("finds the day under the pointer, none in the margin or past the last day", () => {
    expect(dayUnder(48, 100, 4)).toBe(0);
    expect(dayUnder(447, 100, 4)).toBe(3);
    expect(dayUnder(448, 100, 4)).toBeNull();
    expect(dayUnder(40, 100, 4)).toBeNull();
    expect(dayUnder(60, 0, 0)).toBeNull();
  });

  it("puts the tooltip on the side with more room", () => {
    const g = { x: (i: number) => 50 + i * 100, width: 400, band: 100 };
    expect(tooltipSide(0, g)).toEqual({ left: 104 });
    expect(tooltipSide(3, g)).toEqual({ right: 104 });
  });
});
