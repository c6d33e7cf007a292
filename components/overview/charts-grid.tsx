"use client";

import type { ReactNode } from "react";
import { TimeChart } from "@/components/charts/time-chart";
import { Card, CardContent, CardDescription, CardTitle } from "@/components/ui/card";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent, formatTokens, formatUsd } from "@/lib/format/numbers";
import type { StatsDay } from "./schema";

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

const v = (x: number | null | undefined) => (typeof x === "number" ? x : null);
const whole = (n: number) => formatCount(Math.round(n));

/** The window day by day: outcomes, durations, failures, review waits, tokens and cost. */
export function ChartsGrid({ days }: { days: StatsDay[] }) {
  const labels = days.map((d) => d.day);
  const n = days.length;
  const sum = (f: (d: StatsDay) => number) => days.reduce((a, d) => a + f(d), 0);
  const active = sum((d) => d.other);
  const rate = days.map((d) => {
    const finished = d.completed + d.error + d.cancelled;
    return finished ? d.error / finished : null;
  });
  const hasTokens = days.some((d) => typeof d.input_tokens === "number");
  const hasCost = days.some((d) => typeof d.cost_usd === "number");
  const hasPercentiles = days.some((d) => d.p50_seconds !== undefined);

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <ChartCard title="Runs per day" description={`By outcome, last ${n} days`}>
        <TimeChart
          kind="stacked"
          days={labels}
          format={whole}
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
      <ChartCard
        title="Duration"
        description={
          hasPercentiles
            ? "p50 and p95 of finished runs per day"
            : "Average and longest completed run per day"
        }
      >
        <TimeChart
          kind="lines"
          days={labels}
          format={formatDuration}
          summary="Run duration per day, median and 95th percentile."
          series={
            hasPercentiles
              ? [
                  {
                    key: "p50",
                    label: "p50",
                    color: "chart-4",
                    values: days.map((d) => v(d.p50_seconds)),
                  },
                  {
                    key: "p95",
                    label: "p95",
                    color: "chart-5",
                    values: days.map((d) => v(d.p95_seconds)),
                  },
                ]
              : [
                  {
                    key: "avg",
                    label: "Average",
                    color: "chart-4",
                    values: days.map((d) => v(d.avg_seconds)),
                  },
                  {
                    key: "max",
                    label: "Longest",
                    color: "chart-5",
                    values: days.map((d) => v(d.max_seconds)),
                  },
                ]
          }
        />
      </ChartCard>
      <ChartCard title="Failure rate" description="Failed runs out of finished runs per day">
        <TimeChart
          kind="lines"
          days={labels}
          max={Math.max(0.25, ...rate.map((r) => r ?? 0))}
          format={formatPercent}
          summary={`Failure rate per day; ${sum((d) => d.error)} failed runs in ${n} days.`}
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
          summary="Median review wait per day."
          series={[
            {
              key: "wait",
              label: "p50 wait",
              color: "chart-5",
              values: days.map((d) => v(d.review_wait_p50_seconds)),
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Tokens per day" description="Input and output tokens of all runs">
        <TimeChart
          kind="stacked"
          days={labels}
          format={formatTokens}
          summary={
            hasTokens
              ? `Tokens per day: ${formatTokens(sum((d) => d.input_tokens ?? 0))} in, ${formatTokens(sum((d) => d.output_tokens ?? 0))} out over ${n} days.`
              : "Tokens per day: not recorded by this server."
          }
          series={[
            {
              key: "in",
              label: "Input",
              color: "chart-4",
              values: days.map((d) => v(d.input_tokens)),
            },
            {
              key: "out",
              label: "Output",
              color: "chart-1",
              values: days.map((d) => v(d.output_tokens)),
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Cost per day" description="Estimated from each model's prices">
        <TimeChart
          kind="stacked"
          days={labels}
          format={formatUsd}
          summary={
            hasCost
              ? `Estimated cost per day; ${formatUsd(sum((d) => d.cost_usd ?? 0))} over ${n} days.`
              : "Cost per day: not recorded by this server."
          }
          series={[
            {
              key: "cost",
              label: "Cost (USD)",
              color: "chart-5",
              values: days.map((d) => v(d.cost_usd)),
            },
          ]}
        />
      </ChartCard>
    </div>
  );
}
