import type { TimeChartProps } from "@/components/charts/time-chart";
import type { RunStats } from "@/lib/api/client";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";

// The overview's charts (charts-grid.tsx), each drawn from the window's per-day stats.

type StatsDay = RunStats["days"][number];
export type ChartSpec = { title: string; description: string; chart: TimeChartProps };

const whole = (n: number) => formatCount(Math.round(n));
const sum = (days: StatsDay[], f: (d: StatsDay) => number) => days.reduce((a, d) => a + f(d), 0);

/** Runs per day by outcome; runs still going only when there are some. */
export function runsChart({ days }: RunStats): ChartSpec {
  const n = days.length;
  const active = sum(days, (d) => d.other);
  return {
    title: "Runs per day",
    description: `By outcome, last ${n} days`,
    chart: {
      kind: "stacked",
      days: days.map((d) => d.day),
      format: whole,
      unit: "count",
      summary: `Runs per day over the last ${n} days: ${sum(days, (d) => d.completed)} completed, ${sum(days, (d) => d.error)} failed, ${sum(days, (d) => d.cancelled)} stopped${active ? `, ${active} still going` : ""}.`,
      series: [
        {
          key: "completed",
          label: "Completed",
          color: "chart-1",
          values: days.map((d) => d.completed),
        },
        { key: "error", label: "Failed", color: "chart-2", values: days.map((d) => d.error) },
        {
          key: "cancelled",
          label: "Stopped",
          color: "chart-3",
          values: days.map((d) => d.cancelled),
        },
        ...(active
          ? [
              {
                key: "other",
                label: "In progress",
                color: "chart-4" as const,
                values: days.map((d) => d.other),
              },
            ]
          : []),
      ],
    },
  };
}

function durationChart({ days, totals }: RunStats): ChartSpec {
  return {
    title: "Duration",
    description: "p50 and p95 of completed runs per day",
    chart: {
      kind: "lines",
      days: days.map((d) => d.day),
      format: formatDuration,
      unit: "seconds",
      summary: `Run duration per day, median and 95th percentile; over ${days.length} days p50 ${formatDuration(totals.p50_seconds)}, p95 ${formatDuration(totals.p95_seconds)}.`,
      series: [
        { key: "p50", label: "p50", color: "chart-4", values: days.map((d) => d.p50_seconds) },
        { key: "p95", label: "p95", color: "chart-5", values: days.map((d) => d.p95_seconds) },
      ],
    },
  };
}

/** Failed runs of finished ones per day; none on a day nothing finished. */
export const failureRates = (days: StatsDay[]) =>
  days.map((d) => {
    const finished = d.completed + d.error + d.cancelled;
    return finished ? d.error / finished : null;
  });

function failureChart({ days, totals }: RunStats): ChartSpec {
  const rate = failureRates(days);
  return {
    title: "Failure rate",
    description: "Failed runs out of finished runs per day",
    chart: {
      kind: "lines",
      days: days.map((d) => d.day),
      // At least 25% high, so a low rate does not look like a wall.
      max: Math.max(0.25, ...rate.map((r) => r ?? 0)),
      format: formatPercent,
      summary: `Failure rate per day; ${formatPercent(totals.failure_rate)} over ${days.length} days (${totals.failed} failed of ${totals.completed + totals.failed + totals.stopped} finished).`,
      series: [{ key: "rate", label: "Failure rate", color: "chart-2", values: rate }],
    },
  };
}

function reviewWaitChart({ days }: RunStats): ChartSpec {
  return {
    title: "Review wait",
    description: "Median time a task waited for a reviewer, per day",
    chart: {
      kind: "lines",
      days: days.map((d) => d.day),
      format: formatDuration,
      unit: "seconds",
      summary: "Median review wait per day.",
      emptyLabel: "No review finished in these days",
      series: [
        {
          key: "wait",
          label: "p50 wait",
          color: "chart-5",
          values: days.map((d) => d.review_wait_p50_seconds),
        },
      ],
    },
  };
}

function tokensChart({ days, totals }: RunStats): ChartSpec {
  return {
    title: "Tokens per day",
    description: "Input and output tokens of all runs",
    chart: {
      kind: "stacked",
      days: days.map((d) => d.day),
      format: formatTokens,
      unit: "count",
      summary: `Tokens per day: ${formatTokens(totals.input_tokens)} in, ${formatTokens(totals.output_tokens)} out over ${days.length} days.`,
      series: [
        { key: "in", label: "Input", color: "chart-4", values: days.map((d) => d.input_tokens) },
        { key: "out", label: "Output", color: "chart-1", values: days.map((d) => d.output_tokens) },
      ],
    },
  };
}

export function costChart({ days, totals }: RunStats): ChartSpec {
  return {
    title: "Cost per day",
    description: "Estimated from each model's prices",
    chart: {
      kind: "stacked",
      days: days.map((d) => d.day),
      format: formatUsd,
      summary: `Estimated cost per day; ${formatUsd(totals.cost_usd)} over ${days.length} days.`,
      emptyLabel:
        totals.cost_usd === 0 && totals.runs > 0
          ? "$0 so far: the models used cost nothing"
          : "No priced model used in these days",
      series: [
        { key: "cost", label: "Cost (USD)", color: "chart-5", values: days.map((d) => d.cost_usd) },
      ],
    },
  };
}

/** The window day by day: outcomes, durations, failures, review waits, tokens and cost. */
export const overviewCharts = (stats: RunStats): ChartSpec[] =>
  [runsChart, durationChart, failureChart, reviewWaitChart, tokensChart, costChart].map((c) =>
    c(stats),
  );
