// The chart palette as literal class names (Tailwind only generates classes it sees written out).
export const CHART_COLORS = {
  "chart-1": { fill: "fill-chart-1", stroke: "stroke-chart-1", bg: "bg-chart-1" },
  "chart-2": { fill: "fill-chart-2", stroke: "stroke-chart-2", bg: "bg-chart-2" },
  "chart-3": { fill: "fill-chart-3", stroke: "stroke-chart-3", bg: "bg-chart-3" },
  "chart-4": { fill: "fill-chart-4", stroke: "stroke-chart-4", bg: "bg-chart-4" },
  "chart-5": { fill: "fill-chart-5", stroke: "stroke-chart-5", bg: "bg-chart-5" },
} as const;
export type ChartColor = keyof typeof CHART_COLORS;
