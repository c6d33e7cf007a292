"use client";

import { ArrowLeft, ExternalLink } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import type { Decided } from "@/components/review/decision";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { ShortId } from "@/components/ui/short-id";
import { Skeleton } from "@/components/ui/skeleton";
import { type CrewInfo, type InboxReview, orderedInputs, reviewKey } from "./types";

// The review panel (Markdown, the editor's trigger, claim and reassign dialogs, the response form)
// loads with the first review shown, not with the queue.
const ReviewPanel = dynamic(
  () => import("@/components/review/review-panel").then((m) => m.ReviewPanel),
  { ssr: false, loading: () => <Skeleton className="h-64 w-full" /> },
);

/** The review beside the queue: its run, how long it has waited, its inputs, and the panel. */
export function SelectedReview({
  review,
  crews,
  me,
  canReview,
  taskName,
  expectedOutput,
  onBack,
  onChanged,
  onDone,
}: {
  review: InboxReview;
  crews: CrewInfo;
  me: string | null;
  canReview: boolean;
  taskName: string;
  expectedOutput?: string;
  /** Back to the queue (phones, where the review takes the whole width). */
  onBack: () => void;
  onChanged: () => void;
  onDone: (message: string, decided: Decided) => void;
}) {
  return (
    <>
      <ReviewContext review={review} crews={crews} onBack={onBack} />
      {canReview ? (
        <ReviewPanel
          key={`${reviewKey(review)}-${review.attempt}`}
          crew={review.crew}
          executionId={review.execution_id}
          pending={review}
          me={me}
          claimable={!review.remote}
          taskName={taskName}
          expectedOutput={expectedOutput}
          onChanged={onChanged}
          onDone={onDone}
        />
      ) : (
        <Alert tone="info">
          Your role can watch runs but not review them; a reviewer decides on this one.
        </Alert>
      )}
    </>
  );
}

/** Where the review comes from: its crew and run, how long it has waited, its inputs. */
function ReviewContext({
  review,
  crews,
  onBack,
}: {
  review: InboxReview;
  crews: CrewInfo;
  onBack: () => void;
}) {
  return (
    <div className="mb-4 grid gap-2">
      <Button
        variant="ghost"
        size="sm"
        className="-ml-2 justify-self-start lg:hidden"
        onClick={onBack}
      >
        <ArrowLeft aria-hidden />
        Back to the queue
      </Button>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm">
        <span className="font-medium text-foreground">
          {crews[review.crew]?.name ?? review.crew}
        </span>
        <ShortId id={review.execution_id} />
        <span>
          waiting <RelativeTime iso={review.requested_at} />
        </span>
        <Link
          href={`/crews/${review.crew}/runs/${review.execution_id}`}
          className="inline-flex items-center gap-1 text-link hover:underline"
        >
          Open run
          <ExternalLink aria-hidden className="size-3.5" />
        </Link>
      </div>
      {Object.keys(review.inputs).length > 0 && (
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
          {orderedInputs(review, crews).map(([k, v]) => (
            <div key={k} className="flex min-w-0 max-w-full gap-1">
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="min-w-0 truncate">{String(v)}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
