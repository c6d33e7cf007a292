import { Lock, Timer, Wrench } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatExact, formatRelative } from "@/lib/format/time";
import { callsPreview, dueSoon, plain, selectionClass } from "./queue-item-text";
import { type CrewInfo, type InboxReview, orderedInputs } from "./types";

/**
 * One review in the queue: crew, task, key inputs, how long it has waited, who holds it, its
 * approvals and deadline, the start of the output.
 */
export function QueueItem({
  review,
  href,
  taskName,
  crews,
  selected,
  implicit,
  approving,
  me,
  now,
}: {
  review: InboxReview;
  href: string;
  taskName: string;
  crews: CrewInfo;
  selected: boolean;
  /** Selected only because it is first: marked on wide screens, where its review shows. */
  implicit: boolean;
  approving: boolean;
  me: string | null;
  now: number;
}) {
  const since = review.requested_at;
  return (
    <Link
      href={href}
      replace
      scroll={false}
      aria-current={selected && !implicit ? "true" : undefined}
      data-run={review.execution_id}
      data-task={review.task_id}
      className={cn(
        "grid gap-1 border-l-2 px-4 py-3 text-foreground text-sm no-underline outline-offset-[-2px] transition-colors hover:bg-muted",
        selectionClass(selected, implicit),
      )}
    >
      <span className="flex items-baseline gap-2">
        <span className="min-w-0 truncate font-medium">
          {crews[review.crew]?.name ?? review.crew}
        </span>
        <time
          dateTime={since}
          title={formatExact(since)}
          className="ml-auto shrink-0 text-muted-foreground text-xs"
          suppressHydrationWarning
        >
          {formatRelative(since, now)}
        </time>
      </span>
      <ItemBadges review={review} taskName={taskName} approving={approving} me={me} />
      <ItemInputs review={review} crews={crews} />
      <ItemHolding review={review} me={me} now={now} />
      <span
        className={cn(
          "line-clamp-2 text-muted-foreground text-xs",
          review.tool_calls && "font-mono wrap-anywhere",
        )}
      >
        {review.tool_calls ? callsPreview(review.tool_calls) : plain(review.output)}
      </span>
    </Link>
  );
}

/** The task, then what kind of review it is and how far its approvals have got. */
function ItemBadges({
  review,
  taskName,
  approving,
  me,
}: {
  review: InboxReview;
  taskName: string;
  approving: boolean;
  me: string | null;
}) {
  return (
    <span className="flex min-w-0 flex-wrap items-center gap-1.5">
      <span className="min-w-0 truncate">{taskName}</span>
      {review.kind === "tool_call" && (
        <Badge tone="info">
          <Wrench aria-hidden className="size-3" />
          Tool call
        </Badge>
      )}
      {review.attempt > 1 && <Badge tone="warning">Attempt {review.attempt}</Badge>}
      {review.required_approvals > 1 && (
        <Badge tone="neutral">
          {review.approvals.length}/{review.required_approvals} approvals
        </Badge>
      )}
      {me !== null && review.approvals.some((a) => a.reviewer === me) && (
        <Badge tone="success">You voted</Badge>
      )}
      {approving && <Badge tone="info">Approving…</Badge>}
    </span>
  );
}

/** The first two key inputs, the way the crew orders them. */
function ItemInputs({ review, crews }: { review: InboxReview; crews: CrewInfo }) {
  const inputs = orderedInputs(review, crews).slice(0, 2);
  if (inputs.length === 0) return null;
  return (
    <span className="flex min-w-0 gap-3 text-muted-foreground text-xs">
      {inputs.map(([k, v]) => (
        <span key={k} className="min-w-0 max-w-[50%] truncate">
          <span className="font-medium">{k}:</span> {String(v)}
        </span>
      ))}
    </span>
  );
}

/** Who holds the review and when it is due, when either is known. */
function ItemHolding({ review, me, now }: { review: InboxReview; me: string | null; now: number }) {
  if (!review.claimed_by && !review.deadline_at) return null;
  return (
    <span className="flex min-w-0 flex-wrap gap-x-3 gap-y-0.5 text-xs">
      {review.claimed_by && (
        <span className="flex min-w-0 items-center gap-1 text-muted-foreground">
          <Lock aria-hidden className="size-3 shrink-0" />
          <span className="truncate">
            {review.claimed_by === me ? "You are reviewing" : review.claimed_by}
          </span>
        </span>
      )}
      {review.deadline_at && (
        <span
          className={cn(
            "flex items-center gap-1",
            dueSoon(review.deadline_at, now)
              ? "text-tone-warning-foreground"
              : "text-muted-foreground",
          )}
          suppressHydrationWarning
        >
          <Timer aria-hidden className="size-3" />
          due {formatRelative(review.deadline_at, now)}
        </span>
      )}
    </span>
  );
}
