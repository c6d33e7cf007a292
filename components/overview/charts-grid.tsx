"use client";

import type { ReactNode } from "react";
import { TimeChart } from "@/components/charts/time-chart";
import { Card, CardContent, CardDescription, CardTitle } from "@/components/ui/card";
import type { RunStats } from "@/lib/api/client";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";

type StatsDay = RunStats["days"][number];

function ChartCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card className="min-w-0">
      <div className="grid gap-0.5 px-4 pt-4">
        <CardTitle className="m-0 text-sm">{title}</CardTitle>
        <CardDescription className="text-xs">{description}</CardDescription>
      </div>
      <CardContent className="pt-3">{children}</CardContent>
    </Card>
  );
}

const whole = (n: number) => formatCount(Math.round(n));

/** The window day by day: outcomes, durations, failures, review waits, tokens and cost. */
export function ChartsGrid({ stats }: { stats: RunStats }) {
  const { days, totals } = stats;
  const labels = days.map((d) => d.day);
  const n = days.length;
  const sum = (f: (d: StatsDay) => number) => days.reduce((a, d) => a + f(d), 0);
  const active = sum((d) => d.other);
  const rate = days.map((d) => {
    const finished = d.completed + d.error + d.cancelled;
    return finished ? d.error / finished : null;
  });

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartCard title="Runs per day" description={`By outcome, last ${n} days`}>
        <TimeChart
          kind="stacked"
          days={labels}
          format={whole}
          unit="count"
          summary={`Runs per day over the last ${n} days: ${sum((d) => d.completed)} completed, ${sum((d) => d.error)} failed, ${sum((d) => d.cancelled)} stopped${active ? `, ${active} still going` : ""}.`}
          series={[
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
          ]}
        />
      </ChartCard>
      <ChartCard title="Duration" description="p50 and p95 of completed runs per day">
        <TimeChart
          kind="lines"
          days={labels}
          format={formatDuration}
          unit="seconds"
          summary={`Run duration per day, median and 95th percentile; over ${n} days p50 ${formatDuration(totals.p50_seconds)}, p95 ${formatDuration(totals.p95_seconds)}.`}
          series={[
            { key: "p50", label: "p50", color: "chart-4", values: days.map((d) => d.p50_seconds) },
            { key: "p95", label: "p95", color: "chart-5", values: days.map((d) => d.p95_seconds) },
          ]}
        />
      </ChartCard>
      <ChartCard title="Failure rate" description="Failed runs out of finished runs per day">
        <TimeChart
          kind="lines"
          days={labels}
          max={Math.max(0.25, ...rate.map((r) => r ?? 0))}
          format={formatPercent}
          summary={`Failure rate per day; ${formatPercent(totals.failure_rate)} over ${n} days (${totals.failed} failed of ${totals.completed + totals.failed + totals.stopped} finished).`}
          series={[{ key: "rate", label: "Failure rate", color: "chart-2", values: rate }]}
        />
      </ChartCard>
      <ChartCard
        title="Review wait"
        description="Median time a task waited for a reviewer, per day"
      >
        <TimeChart
          kind="lines"
          days={labels}
          format={formatDuration}
          unit="seconds"
          summary="Median review wait per day."
          emptyLabel="No review finished in these days"
          series={[
            {
              key: "wait",
              label: "p50 wait",
              color: "chart-5",
              values: days.map((d) => d.review_wait_p50_seconds),
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Tokens per day" description="Input and output tokens of all runs">
        <TimeChart
          kind="stacked"
          days={labels}
          format={formatTokens}
          unit="count"
          summary={`Tokens per day: ${formatTokens(totals.input_tokens)} in, ${formatTokens(totals.output_tokens)} out over ${n} days.`}
          series={[
            {
              key: "in",
              label: "Input",
              color: "chart-4",
              values: days.map((d) => d.input_tokens),
            },
            {
              key: "out",
              label: "Output",
              color: "chart-1",
              values: days.map((d) => d.output_tokens),
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Cost per day" description="Estimated from each model's prices">
        <TimeChart
          kind="stacked"
          days={labels}
          format={formatUsd}
          summary={`Estimated cost per day; ${formatUsd(totals.cost_usd)} over ${n} days.`}
          emptyLabel={
            totals.cost_usd === 0 && totals.runs > 0
              ? "$0 so far: the models used cost nothing"
              : "No priced model used in these days"
          }
          series={[
            {
              key: "cost",
              label: "Cost (USD)",
              color: "chart-5",
              values: days.map((d) => d.cost_usd),
            },
          ]}
        />
      </ChartCard>
    </div>
  );
}
