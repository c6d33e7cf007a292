"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, ExternalLink, Inbox as InboxIcon } from "lucide-react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { approvalKey, useScheduledApprovals } from "@/components/review/deferred-approval";
import { isTyping, Kbd } from "@/components/review/kbd";
import { ReviewPanel } from "@/components/review/review-panel";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ShortId } from "@/components/ui/short-id";
import { Skeleton } from "@/components/ui/skeleton";
import { runsApi } from "@/lib/api/client";
import { DecisionNotices } from "./decision-notices";
import { QueueItem } from "./queue-item";
import { type CrewInfo, type Decision, orderedInputs, type TaskInfo, waitingSince } from "./types";

/**
 * Every run that awaits review, longest waiting first, beside the review of the selected one
 * (`?run=`). On phones the queue comes first and a selection opens the review full-width.
 */
export function Inbox({
  canReview,
  tasks,
  crews,
}: {
  canReview: boolean;
  tasks: TaskInfo;
  crews: CrewInfo;
}) {
  const router = useRouter();
  const params = useSearchParams();
  const queryClient = useQueryClient();
  const approvals = useScheduledApprovals();
  const [decisions, setDecisions] = useState<Decision[]>([]);
  const [now, setNow] = useState(() => Date.now());
  const { data, error, isPending } = useQuery({
    queryKey: ["runs", "inbox"],
    queryFn: () => runsApi.list({ status: "pending_human_input", per_page: "100" }),
    refetchInterval: 5_000,
  });
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const runs = useMemo(
    () =>
      (data?.runs ?? [])
        .filter((r) => r.pending_human_input)
        .sort((a, b) => waitingSince(a).localeCompare(waitingSince(b))),
    [data],
  );
  const asked = params.get("run");
  const selected = runs.find((r) => r.id === asked) ?? runs[0] ?? null;
  const gone = asked !== null && data !== undefined && !runs.some((r) => r.id === asked);

  const select = useCallback(
    (id: string | null) =>
      router.replace(id ? `/inbox?run=${encodeURIComponent(id)}` : "/inbox", { scroll: false }),
    [router],
  );
  const taskName = (crew: string, id: string) => tasks[crew]?.[id]?.name ?? id;

  // j / k move through the queue (not while typing in a field).
  const order = useRef({ runs, selected, select });
  order.current = { runs, selected, select };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (e.key !== "j" && e.key !== "k") return;
      const { runs, selected, select } = order.current;
      if (runs.length === 0) return;
      e.preventDefault();
      const at = selected ? runs.indexOf(selected) : -1;
      const next = e.key === "j" ? Math.min(at + 1, runs.length - 1) : Math.max(at - 1, 0);
      const run = runs[next];
      if (run) {
        select(run.id);
        document.querySelector(`[data-run="${run.id}"]`)?.scrollIntoView({ block: "nearest" });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const expire = useCallback(
    (runId: string) => setDecisions((ds) => ds.filter((d) => d.runId !== runId)),
    [],
  );

  if (error)
    return (
      <Alert tone="danger" title="Could not load the inbox">
        {error.message} It retries on its own; reload the page if this stays.
      </Alert>
    );
  if (isPending)
    return (
      <div className="grid gap-3 lg:grid-cols-[22rem_1fr]" aria-busy="true">
        <Skeleton className="h-64" />
        <Skeleton className="hidden h-64 lg:block" />
      </div>
    );

  const notices = <DecisionNotices decisions={decisions} onExpire={expire} />;
  if (runs.length === 0)
    return (
      <div className="grid gap-4">
        {notices}
        <EmptyState
          icon={InboxIcon}
          title="Nothing waiting for review"
          action={
            <Button asChild variant="secondary">
              <Link href="/runs">See all runs</Link>
            </Button>
          }
        >
          Runs stop here when a task asks for a human review. New requests appear on their own.
        </EmptyState>
      </div>
    );

  const pending = selected?.pending_human_input ?? null;
  const info = selected && pending ? tasks[selected.crew]?.[pending.task_id] : undefined;
  return (
    <div className="grid gap-4">
      {notices}
      {gone && (
        <Alert tone="info">
          That run no longer awaits review; it was decided or moved on.{" "}
          <Link className="text-link underline" href={`/runs?q=${encodeURIComponent(asked ?? "")}`}>
            Find it in runs
          </Link>
        </Alert>
      )}
      <div className="grid overflow-hidden rounded-xl border bg-card lg:grid-cols-[22rem_minmax(0,1fr)]">
        <nav
          aria-label="Review queue"
          className={cn("min-w-0 lg:border-r", asked && !gone && "hidden lg:block")}
        >
          <div className="flex items-center justify-between border-b px-4 py-2.5 text-muted-foreground text-xs">
            <span>{runs.length} waiting · longest first</span>
            <span className="hidden items-center gap-1 lg:flex">
              <Kbd>j</Kbd>
              <Kbd>k</Kbd> to move
            </span>
          </div>
          <ul className="max-h-[calc(100dvh-14rem)] divide-y overflow-y-auto">
            {runs.map((r) => (
              <li key={r.id}>
                <QueueItem
                  run={r}
                  now={now}
                  taskName={taskName(r.crew, r.pending_human_input?.task_id ?? "")}
                  crews={crews}
                  selected={r.id === selected?.id}
                  implicit={!asked || gone}
                  approving={
                    r.pending_human_input
                      ? approvals.has(
                          approvalKey(
                            r.id,
                            r.pending_human_input.task_id,
                            r.pending_human_input.attempt,
                          ),
                        )
                      : false
                  }
                />
              </li>
            ))}
          </ul>
        </nav>
        {selected && pending && (
          <div className={cn("min-w-0 p-4 sm:p-6", !(asked && !gone) && "hidden lg:block")}>
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
                <ShortId id={selected.id} />
                <span>
                  waiting <RelativeTime iso={waitingSince(selected)} />
                </span>
                <Link
                  href={`/crews/${selected.crew}/runs/${selected.id}`}
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
                key={`${selected.id}-${pending.task_id}-${pending.attempt}`}
                crew={selected.crew}
                executionId={selected.id}
                pending={pending}
                taskName={info?.name}
                expectedOutput={info?.expected}
                onDone={(message) => {
                  const decided = selected.id;
                  setDecisions((ds) => [
                    ...ds.filter((d) => d.runId !== decided),
                    {
                      runId: decided,
                      crew: selected.crew,
                      taskId: pending.task_id,
                      attempt: pending.attempt,
                      message,
                    },
                  ]);
                  // Move on to the next waiting run, as a mail client does after archiving.
                  const at = runs.findIndex((r) => r.id === decided);
                  const next = runs[at + 1] ?? runs[at - 1];
                  if (order.current.selected?.id === decided) select(next?.id ?? null);
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
