"use client";

import type { ReactNode } from "react";
import { TimeChart } from "@/components/charts/time-chart";
import { Card, CardContent, CardDescription, CardTitle } from "@/components/ui/card";
import type { RunStats } from "@/lib/api/client";
import { overviewCharts } from "./chart-specs";

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

/** The window day by day: outcomes, durations, failures, review waits, tokens and cost. */
export function ChartsGrid({ stats }: { stats: RunStats }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {overviewCharts(stats).map((c) => (
        <ChartCard key={c.title} title={c.title} description={c.description}>
          <TimeChart {...c.chart} />
        </ChartCard>
      ))}
    </div>
  );
}
