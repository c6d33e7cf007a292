"use client";

import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { ClipboardCheck } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { type ReviewStats, runsApi } from "@/lib/api/client";
import { formatDuration } from "@/lib/format/duration";
import { formatCount, formatPercent } from "@/lib/format/numbers";
import { ReviewTables } from "./review-tables";
import { Stat } from "./stat-cards";

// The review figures cost more to compute than the run counts; every 15 s is live enough.
const LIVE = { refetchInterval: 15_000 };

const rounds = (avg: number | null) => (avg === null ? "—" : avg.toFixed(avg < 10 ? 1 : 0));

/** How reviews went in the overview's window: the four figures, then by crew and by reviewer. */
export function ReviewSection({ days }: { days: number }) {
  const q = useQuery({
    queryKey: ["runs", "review-stats", days],
    queryFn: () => runsApi.reviewStats(days),
    ...LIVE,
  });
  return (
    <section aria-labelledby="reviews-heading" className="grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
        <h2 id="reviews-heading" className="font-semibold text-base">
          Reviews
        </h2>
        <p className="text-muted-foreground text-xs">Runs started in the last {days} days</p>
      </div>
      <ReviewBody q={q} days={days} />
    </section>
  );
}

function ReviewBody({ q, days }: { q: UseQueryResult<ReviewStats>; days: number }) {
  if (q.error)
    return (
      <Alert tone="danger" title="The review figures could not be loaded">
        {q.error.message} They are retried every few seconds.
      </Alert>
    );
  if (!q.data)
    return (
      <div className="grid gap-3" aria-busy="true">
        <span className="sr-only">Loading the review figures…</span>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24 rounded-xl" />
          ))}
        </div>
        <div className="grid gap-4 2xl:grid-cols-2">
          <Skeleton className="h-40 rounded-xl" />
          <Skeleton className="h-40 rounded-xl" />
        </div>
      </div>
    );
  const t = q.data.totals;
  if (t.requests === 0 && t.timeouts === 0)
    return (
      <EmptyState icon={ClipboardCheck} title={`No reviews in the last ${days} days`}>
        When a task marked <code>human_input</code> waits for a person, this shows how long it
        waited, how often it was approved or sent back, and which deadlines passed — by crew and by
        reviewer.
      </EmptyState>
    );
  const byAction = Object.entries(t.timeouts_by_action)
    .map(([action, n]) => `${formatCount(n)} ${action.replace("_", " ")}`)
    .join(" · ");
  return (
    <>
      <ul aria-label="Review figures" className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Stat
          label="Time to first review"
          value={formatDuration(t.first_review_p50_seconds)}
          sub={
            t.answered
              ? `p50 · p95 ${formatDuration(t.first_review_p95_seconds)}`
              : `${formatCount(t.requests)} not picked up yet`
          }
        />
        <Stat
          label="Approval rate"
          value={formatPercent(t.approval_rate)}
          sub={
            t.decisions
              ? `${formatCount(t.approved)} of ${formatCount(t.decisions)} decisions`
              : "No decision yet"
          }
        />
        <Stat
          label="Send-back rounds"
          value={rounds(t.send_back_rounds_avg)}
          sub={
            t.reviewed_tasks
              ? `per task · max ${formatCount(t.send_back_rounds_max)}`
              : "No task reviewed yet"
          }
        />
        <Stat
          label="Timeouts"
          value={formatCount(t.timeouts)}
          sub={byAction || "No deadline passed"}
          tone={t.timeouts ? "warning" : undefined}
        />
      </ul>
      <ReviewTables stats={q.data} />
    </>
  );
}
