"use client";

import dynamic from "next/dynamic";
import { Alert } from "@/components/ui/alert";
import { Skeleton } from "@/components/ui/skeleton";
import type { StatusResponse } from "@/lib/contract/status";

// The review form brings Markdown with it: loaded only when a run awaits review.
const ReviewPanel = dynamic(
  () => import("@/components/review/review-panel").then((m) => m.ReviewPanel),
  {
    ssr: false,
    loading: () => <Skeleton className="h-48 w-full" />,
  },
);

type Review = NonNullable<StatusResponse["pending_human_inputs"]>[number];

/**
 * Every open review of the run (several when tasks running side by side each wait for one): the
 * form for a reviewer, a note for anyone else.
 */
export function RunReviews({
  crew,
  executionId,
  reviews,
  canReview,
  me,
  expectedOutputs,
  taskName,
  onChanged,
}: {
  crew: string;
  executionId: string;
  reviews: Review[];
  canReview: boolean;
  me: string | null;
  expectedOutputs: Record<string, string>;
  taskName: (taskId: string) => string | undefined;
  onChanged: () => void;
}) {
  if (!canReview)
    return reviews.map((review) => (
      <Alert key={review.task_id} tone="warning" title="Awaiting review">
        “{taskName(review.task_id) ?? review.task_id}” waits for a reviewer; the run goes on once
        they decide.
      </Alert>
    ));
  if (!reviews.length) return null;
  const several = reviews.length > 1;
  return (
    <div className={several ? "grid gap-3" : "contents"}>
      {several && (
        <h2 className="m-0 font-semibold text-base">{reviews.length} outputs wait for review</h2>
      )}
      {reviews.map((review, i) => (
        <div
          key={`${review.task_id}-${review.attempt}`}
          id={`review-${review.task_id}`}
          className={several ? "rounded-xl border bg-card p-4 sm:p-5" : undefined}
        >
          <ReviewPanel
            crew={crew}
            executionId={executionId}
            pending={review}
            me={me}
            claimable={!crew.startsWith("@")}
            taskName={taskName(review.task_id)}
            expectedOutput={expectedOutputs[review.task_id]}
            shortcuts={i === 0}
            onDone={() => onChanged()}
            onChanged={() => onChanged()}
          />
        </div>
      ))}
    </div>
  );
}
