"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { NoRunsYet } from "@/components/runs/runs-list-parts";
import { Alert } from "@/components/ui/alert";
import { Card, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { runsApi } from "@/lib/api/client";
import { ChartsGrid } from "./charts-grid";
import { RecentRuns } from "./recent-runs";
import { ReviewSection } from "./review-section";
import { StatCards } from "./stat-cards";

const LIVE = { refetchInterval: 5_000 };

/** The team's runs at a glance, live: what needs someone, how the last two weeks went. */
export function Overview() {
  const stats = useQuery({
    queryKey: ["runs", "stats"],
    queryFn: runsApi.stats,
    ...LIVE,
  });
  const recent = useQuery({
    queryKey: ["runs", "list", "per_page=8"],
    queryFn: () => runsApi.list({ per_page: "8" }),
    ...LIVE,
  });

  if (stats.error)
    return (
      <Alert tone="danger" title="The overview could not be loaded">
        {stats.error.message} It is retried every few seconds; reload the page if it persists.
      </Alert>
    );
  if (!stats.data || !recent.data)
    return (
      <div className="grid gap-4" aria-busy="true">
        <span className="sr-only">Loading the overview…</span>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} className="h-24 rounded-xl" />
          ))}
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <Skeleton className="h-64 rounded-xl" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </div>
    );

  const data = stats.data;
  const runs = recent.data.runs;
  if (data.totals.runs === 0 && runs.length === 0)
    return (
      <NoRunsYet>
        Once crews run, this page shows what awaits review, what is running, and how the last two
        weeks went: outcomes, durations, tokens and cost.
      </NoRunsYet>
    );

  return (
    <div className="grid gap-6">
      <StatCards stats={data} />
      <ChartsGrid stats={data} />
      <ReviewSection days={data.window_days} />
      <Card>
        <div className="flex items-center justify-between gap-2 px-4 pt-4 pb-2">
          <CardTitle className="m-0 text-sm">Recent runs</CardTitle>
          <Link href="/runs" className="text-link text-sm hover:underline">
            All runs →
          </Link>
        </div>
        <RecentRuns runs={runs} />
      </Card>
    </div>
  );
}
