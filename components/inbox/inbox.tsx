"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Inbox as InboxIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { approvalKey, useScheduledApprovals } from "@/components/review/deferred-approval";
import { Kbd } from "@/components/review/kbd";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { DecisionNotices } from "./decision-notices";
import { InboxFilters } from "./inbox-filters";
import { QueueItem } from "./queue-item";
import type { Scope } from "./scopes";
import { SelectedReview } from "./selected-review";
import { type CrewInfo, type InboxReview, reviewKey, type TaskInfo } from "./types";
import { useInbox } from "./use-inbox";

type Inbox = ReturnType<typeof useInbox>;

const EMPTY_TITLE: Record<Scope, string> = {
  mine: "Nothing assigned to you",
  team: "Nothing for your teams",
  all: "Nothing waiting for review",
};

/**
 * Every review waiting for a decision, longest waiting first, beside the selected one (`?run=`,
 * and `&task=` when the run has several open). Filters: assigned to me, my team, all. On phones
 * the queue comes first and a selection opens the review full-width.
 */
export function Inbox({
  canReview,
  tasks,
  crews,
  me,
}: {
  canReview: boolean;
  tasks: TaskInfo;
  crews: CrewInfo;
  me: string | null;
}) {
  const queryClient = useQueryClient();
  const approvals = useScheduledApprovals();
  const inbox = useInbox(canReview, crews);
  const { data, scope, reviews, selected, explicit, hrefOf } = inbox;
  const taskName = (r: InboxReview) => tasks[r.crew]?.[r.task_id]?.name ?? r.task_name;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["runs"] });

  const filters = (
    <InboxFilters scope={scope} counts={data?.counts} hrefOf={(s) => hrefOf(null, s)} />
  );
  if (inbox.error)
    return (
      <Alert tone="danger" title="Could not load the inbox">
        {inbox.error.message} It retries on its own; reload the page if this stays.
      </Alert>
    );
  if (inbox.isPending) return <InboxLoading filters={filters} />;

  const notices = <DecisionNotices decisions={inbox.decisions} onExpire={inbox.expire} />;
  if (reviews.length === 0) {
    return (
      <div className="grid gap-4">
        {filters}
        {notices}
        <NothingWaiting scope={scope} all={data?.counts.all ?? 0} hrefOf={inbox.hrefOf} />
      </div>
    );
  }

  return (
    <div className="grid gap-4">
      {filters}
      {notices}
      {inbox.gone && <GoneNotice why={inbox.goneWhy} run={inbox.askedRun} />}
      <div className="grid overflow-hidden rounded-xl border bg-card lg:grid-cols-[22rem_minmax(0,1fr)]">
        <ReviewQueue
          inbox={inbox}
          me={me}
          crews={crews}
          taskName={taskName}
          approving={(r) => approvals.has(approvalKey(r.execution_id, r.task_id, r.attempt))}
        />
        {selected && (
          <div className={cn("min-w-0 p-4 sm:p-6", !explicit && "hidden lg:block")}>
            <SelectedReview
              review={selected}
              crews={crews}
              me={me}
              canReview={canReview}
              taskName={taskName(selected)}
              expectedOutput={tasks[selected.crew]?.[selected.task_id]?.expected}
              onBack={() => inbox.select(null)}
              onChanged={refresh}
              onDone={(message, decided) => {
                inbox.decided(selected, message, decided !== "recorded");
                refresh();
              }}
            />
          </div>
        )}
      </div>
    </div>
  );
}

function NothingWaiting({
  scope,
  all,
  hrefOf,
}: {
  scope: Scope;
  all: number;
  hrefOf: Inbox["hrefOf"];
}) {
  const elsewhere = scope !== "all" && all > 0;
  return (
    <EmptyState
      icon={InboxIcon}
      title={EMPTY_TITLE[scope]}
      action={
        <Button asChild variant="secondary">
          {elsewhere ? (
            <Link href={hrefOf(null, "all")} replace>
              See all {all} waiting
            </Link>
          ) : (
            <Link href="/runs">See all runs</Link>
          )}
        </Button>
      }
    >
      {elsewhere
        ? "Other reviews are waiting for other people or teams."
        : "Runs stop here when a task asks for a human review. New requests appear on their own."}
    </EmptyState>
  );
}

/** The review the link asked for has left the queue: why, when known, and where its run is. */
function GoneNotice({
  why,
  run,
}: {
  why: string | null | undefined;
  run: string | null | undefined;
}) {
  return (
    <Alert tone="info">
      {why
        ? `That review is no longer waiting for you: ${why}.`
        : "That review is no longer waiting here; it was decided, moved on or reassigned."}{" "}
      <Link className="text-link underline" href={`/runs?q=${encodeURIComponent(run ?? "")}`}>
        Find the run
      </Link>
    </Alert>
  );
}

function ReviewQueue({
  inbox,
  me,
  crews,
  taskName,
  approving,
}: {
  inbox: Inbox;
  me: string | null;
  crews: CrewInfo;
  taskName: (r: InboxReview) => string;
  approving: (r: InboxReview) => boolean;
}) {
  return (
    <nav
      aria-label="Review queue"
      className={cn("min-w-0 lg:border-r", inbox.explicit && "hidden lg:block")}
    >
      <div className="flex items-center justify-between border-b px-4 py-2.5 text-muted-foreground text-xs">
        <span>{inbox.reviews.length} waiting · longest first</span>
        <span className="hidden items-center gap-1 lg:flex">
          <Kbd>j</Kbd>
          <Kbd>k</Kbd> to move
        </span>
      </div>
      <ul className="max-h-[calc(100dvh-16rem)] divide-y overflow-y-auto">
        {inbox.reviews.map((r) => (
          <li key={reviewKey(r)}>
            <QueueItem
              review={r}
              href={inbox.hrefOf(r)}
              now={inbox.now}
              me={me}
              taskName={taskName(r)}
              crews={crews}
              selected={inbox.selected !== null && reviewKey(r) === reviewKey(inbox.selected)}
              implicit={!inbox.explicit}
              approving={approving(r)}
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function InboxLoading({ filters }: { filters: ReactNode }) {
  return (
    <div className="grid gap-3" aria-busy="true">
      {filters}
      <div className="grid gap-3 lg:grid-cols-[22rem_1fr]">
        <Skeleton className="h-64" />
        <Skeleton className="hidden h-64 lg:block" />
      </div>
    </div>
  );
}
