"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ExternalLink, Inbox as InboxIcon } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { approvalKey, useScheduledApprovals } from "@/components/review/deferred-approval";
import { isTyping, Kbd } from "@/components/review/kbd";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ShortId } from "@/components/ui/short-id";
import { Skeleton } from "@/components/ui/skeleton";
import { reviewsApi } from "@/lib/api/client";
import { DecisionNotices } from "./decision-notices";
import { QueueItem } from "./queue-item";
import {
  type CrewInfo,
  type Decision,
  type InboxReview,
  orderedInputs,
  reviewKey,
  type TaskInfo,
} from "./types";

// The review panel (Markdown, the editor's trigger, claim and reassign dialogs, the response form)
// loads with the first review shown, not with the queue.
const ReviewPanel = dynamic(
  () => import("@/components/review/review-panel").then((m) => m.ReviewPanel),
  { ssr: false, loading: () => <Skeleton className="h-64 w-full" /> },
);

export const SCOPES = [
  { id: "mine", label: "Assigned to me" },
  { id: "team", label: "My team" },
  { id: "all", label: "All" },
] as const;
export type Scope = (typeof SCOPES)[number]["id"];

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
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const approvals = useScheduledApprovals();
  const [decisions, setDecisions] = useState<Decision[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const defaultScope: Scope = canReview ? "mine" : "all";
  const asked = params.get("scope");
  const scope: Scope = SCOPES.some((s) => s.id === asked) ? (asked as Scope) : defaultScope;
  const { data, error, isPending } = useQuery({
    queryKey: ["runs", "inbox", scope],
    queryFn: () => reviewsApi.list(scope),
    refetchInterval: 5_000,
  });
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const reviews = useMemo(
    () => [...(data?.reviews ?? [])].sort((a, b) => a.requested_at.localeCompare(b.requested_at)),
    [data],
  );
  const askedRun = params.get("run");
  const askedTask = params.get("task");
  const selected =
    reviews.find(
      (r) => r.execution_id === askedRun && (askedTask === null || r.task_id === askedTask),
    ) ??
    (askedRun ? undefined : reviews[0]) ??
    null;
  const gone = askedRun !== null && data !== undefined && !selected;
  const explicit = askedRun !== null && !gone;

  // The URL of a review: the scope when not the default, the run, the task when the run has more.
  const hrefOf = useCallback(
    (r: InboxReview | null, inScope: Scope = scope) => {
      const q = new URLSearchParams();
      if (inScope !== defaultScope) q.set("scope", inScope);
      if (r) {
        q.set("run", r.execution_id);
        if (reviews.filter((x) => x.execution_id === r.execution_id).length > 1)
          q.set("task", r.task_id);
      }
      const query = q.toString();
      return query ? `/inbox?${query}` : "/inbox";
    },
    [scope, defaultScope, reviews],
  );
  const select = useCallback(
    (r: InboxReview | null) => router.replace(hrefOf(r), { scroll: false }),
    [router, hrefOf],
  );
  const taskName = (r: InboxReview) => tasks[r.crew]?.[r.task_id]?.name ?? r.task_name;

  // j / k move through the queue (not while typing in a field).
  const order = useRef({ reviews, selected, select });
  order.current = { reviews, selected, select };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (e.key !== "j" && e.key !== "k") return;
      const { reviews, selected, select } = order.current;
      if (reviews.length === 0) return;
      e.preventDefault();
      const at = selected ? reviews.indexOf(selected) : -1;
      const next = e.key === "j" ? Math.min(at + 1, reviews.length - 1) : Math.max(at - 1, 0);
      const review = reviews[next];
      if (review) {
        select(review);
        document
          .querySelector(`[data-run="${review.execution_id}"][data-task="${review.task_id}"]`)
          ?.scrollIntoView({ block: "nearest" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const expire = useCallback(
    (runId: string) => setDecisions((ds) => ds.filter((d) => d.runId !== runId)),
    [],
  );

  const filters = (
    <nav aria-label="Inbox filters" className="flex flex-wrap items-center gap-2">
      <div className="inline-flex max-w-full items-center gap-1 overflow-x-auto rounded-lg bg-muted p-1">
        {SCOPES.map((s) => (
          <Link
            key={s.id}
            href={hrefOf(null, s.id)}
            replace
            scroll={false}
            aria-current={s.id === scope ? "page" : undefined}
            className={cn(
              "inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-1.5 font-medium text-sm no-underline transition-colors",
              s.id === scope
                ? "bg-card text-foreground shadow-xs"
                : "text-muted-foreground hover:text-foreground",
            )}
          >
            {s.label}
            {data && (
              <span className="rounded-full bg-background px-1.5 text-muted-foreground text-xs tabular-nums">
                {data.counts[s.id]}
              </span>
            )}
          </Link>
        ))}
      </div>
    </nav>
  );

  if (error)
    return (
      <Alert tone="danger" title="Could not load the inbox">
        {error.message} It retries on its own; reload the page if this stays.
      </Alert>
    );
  if (isPending)
    return (
      <div className="grid gap-3" aria-busy="true">
        {filters}
        <div className="grid gap-3 lg:grid-cols-[22rem_1fr]">
          <Skeleton className="h-64" />
          <Skeleton className="hidden h-64 lg:block" />
        </div>
      </div>
    );

  const notices = <DecisionNotices decisions={decisions} onExpire={expire} />;
  if (reviews.length === 0) {
    const elsewhere = scope !== "all" && data.counts.all > 0;
    return (
      <div className="grid gap-4">
        {filters}
        {notices}
        <EmptyState
          icon={InboxIcon}
          title={
            scope === "mine"
              ? "Nothing assigned to you"
              : scope === "team"
                ? "Nothing for your teams"
                : "Nothing waiting for review"
          }
          action={
            elsewhere ? (
              <Button asChild variant="secondary">
                <Link href={hrefOf(null, "all")} replace>
                  See all {data.counts.all} waiting
                </Link>
              </Button>
            ) : (
              <Button asChild variant="secondary">
                <Link href="/runs">See all runs</Link>
              </Button>
            )
          }
        >
          {elsewhere
            ? "Other reviews are waiting for other people or teams."
            : "Runs stop here when a task asks for a human review. New requests appear on their own."}
        </EmptyState>
      </div>
    );
  }

  const info = selected ? tasks[selected.crew]?.[selected.task_id] : undefined;
  return (
    <div className="grid gap-4">
      {filters}
      {notices}
      {gone && (
        <Alert tone="info">
          That review is no longer waiting here; it was decided, moved on or reassigned.{" "}
          <Link
            className="text-link underline"
            href={`/runs?q=${encodeURIComponent(askedRun ?? "")}`}
          >
            Find the run
          </Link>
        </Alert>
      )}
      <div className="grid overflow-hidden rounded-xl border bg-card lg:grid-cols-[22rem_minmax(0,1fr)]">
        <nav
          aria-label="Review queue"
          className={cn("min-w-0 lg:border-r", explicit && "hidden lg:block")}
        >
          <div className="flex items-center justify-between border-b px-4 py-2.5 text-muted-foreground text-xs">
            <span>{reviews.length} waiting · longest first</span>
            <span className="hidden items-center gap-1 lg:flex">
              <Kbd>j</Kbd>
              <Kbd>k</Kbd> to move
            </span>
          </div>
          <ul className="max-h-[calc(100dvh-16rem)] divide-y overflow-y-auto">
            {reviews.map((r) => (
              <li key={reviewKey(r)}>
                <QueueItem
                  review={r}
                  href={hrefOf(r)}
                  now={now}
                  me={me}
                  taskName={taskName(r)}
                  crews={crews}
                  selected={selected !== null && reviewKey(r) === reviewKey(selected)}
                  implicit={!explicit}
                  approving={approvals.has(approvalKey(r.execution_id, r.task_id, r.attempt))}
                />
              </li>
            ))}
          </ul>
        </nav>
        {selected && (
          <div className={cn("min-w-0 p-4 sm:p-6", !explicit && "hidden lg:block")}>
            <div className="mb-4 grid gap-2">
              <Button
                variant="ghost"
                size="sm"
                className="-ml-2 justify-self-start lg:hidden"
                onClick={() => select(null)}
              >
                <ArrowLeft aria-hidden />
                Back to the queue
              </Button>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm">
                <span className="font-medium text-foreground">
                  {crews[selected.crew]?.name ?? selected.crew}
                </span>
                <ShortId id={selected.execution_id} />
                <span>
                  waiting <RelativeTime iso={selected.requested_at} />
                </span>
                <Link
                  href={`/crews/${selected.crew}/runs/${selected.execution_id}`}
                  className="inline-flex items-center gap-1 text-link hover:underline"
                >
                  Open run
                  <ExternalLink aria-hidden className="size-3.5" />
                </Link>
              </div>
              {Object.keys(selected.inputs).length > 0 && (
                <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
                  {orderedInputs(selected, crews).map(([k, v]) => (
                    <div key={k} className="flex min-w-0 max-w-full gap-1">
                      <dt className="text-muted-foreground">{k}</dt>
                      <dd className="min-w-0 truncate">{String(v)}</dd>
                    </div>
                  ))}
                </dl>
              )}
            </div>
            {canReview ? (
              <ReviewPanel
                key={`${reviewKey(selected)}-${selected.attempt}`}
                crew={selected.crew}
                executionId={selected.execution_id}
                pending={selected}
                me={me}
                claimable={!selected.remote}
                taskName={taskName(selected)}
                expectedOutput={info?.expected}
                onChanged={() => void queryClient.invalidateQueries({ queryKey: ["runs"] })}
                onDone={(message, decided) => {
                  const run = selected.execution_id;
                  setDecisions((ds) => [
                    ...ds.filter((d) => d.runId !== run),
                    {
                      runId: run,
                      crew: selected.crew,
                      taskId: selected.task_id,
                      attempt: selected.attempt,
                      message,
                    },
                  ]);
                  // Decided: move on to the next waiting review, as a mail client does after
                  // archiving. A quorum vote leaves it open for others: stay on it.
                  if (decided !== "recorded") {
                    const at = reviews.findIndex((r) => reviewKey(r) === reviewKey(selected));
                    const next = reviews[at + 1] ?? reviews[at - 1];
                    const current = order.current.selected;
                    if (current && reviewKey(current) === reviewKey(selected)) select(next ?? null);
                  }
                  void queryClient.invalidateQueries({ queryKey: ["runs"] });
                }}
              />
            ) : (
              <Alert tone="info">
                Your role can watch runs but not review them; a reviewer decides on this one.
              </Alert>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
