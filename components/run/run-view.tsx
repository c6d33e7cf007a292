"use client";

import dynamic from "next/dynamic";
import { useEffect, useMemo, useRef, useState } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { ShortId } from "@/components/ui/short-id";
import { Skeleton } from "@/components/ui/skeleton";
import { useLiveExecution } from "@/components/use-live-execution";
import type { StatusResponse } from "@/lib/contract/status";
import { isActive } from "@/lib/run-model/states";
import { DETAIL_PANE } from "./detail-pane";
import { FlowGraph } from "./flow-graph";
import type { FlowShapeMethod } from "./flow-layout";
import { RunActions } from "./run-actions";
import { RunHeaderFacts } from "./run-header-facts";
import { RunInputs } from "./run-inputs";
import { RunLineage } from "./run-lineage";
import { runMetrics } from "./run-metrics";
import { RunOutcome } from "./run-outcome";
import { RunSummary } from "./run-summary";
import { startedByText } from "./run-types";
import { buildTrace } from "./trace-model";
import { useNow } from "./use-now";
import { type Selection, Waterfall } from "./waterfall";

// The review form brings Markdown with it: loaded only when a run awaits review.
const ReviewPanel = dynamic(
  () => import("@/components/review/review-panel").then((m) => m.ReviewPanel),
  {
    ssr: false,
    loading: () => <Skeleton className="h-48 w-full" />,
  },
);

// What a step did comes with the first selection: most of the page's first view is the trace.
// Only a task sent back has attempts to compare: loads when there is one.
const AttemptCompare = dynamic(() => import("./attempt-compare").then((m) => m.AttemptCompare), {
  loading: () => null,
});
// Shown once a run has completed: loads then, not with every run page.
const RunResult = dynamic(() => import("./run-result").then((m) => m.RunResult), {
  loading: () => null,
});
// Only runs with output_file tasks or written workspace files have files: loads when there are some.
const RunFiles = dynamic(() => import("./run-files").then((m) => m.RunFiles), {
  loading: () => null,
});
// Only runs that had a review have a ledger: the card loads when there is one.
const RunLedger = dynamic(() => import("./run-ledger").then((m) => m.RunLedger), {
  loading: () => null,
});
const StepDetail = dynamic(() => import("./step-detail").then((m) => m.StepDetail), {
  ssr: false,
  loading: () => (
    <div className={DETAIL_PANE}>
      <Skeleton className="h-40 w-full" />
    </div>
  ),
});

/** A run as a trace: header and figures, the waterfall with a detail pane, review, result. */
export function RunView({
  crew,
  crewName,
  id,
  initialStatus,
  renderedAt,
  canStop,
  canStart,
  canReview,
  me,
  expectedOutputs,
  initialTask,
  flowMethods,
}: {
  crew: string;
  crewName: string;
  id: string;
  initialStatus?: StatusResponse;
  renderedAt: number;
  canStop: boolean;
  canStart: boolean;
  canReview: boolean;
  /** The signed-in person's e-mail (their approvals and claims are shown as theirs). */
  me: string | null;
  expectedOutputs: Record<string, string>;
  /** `?task=` (a notification's review link): that task starts selected. */
  initialTask?: string;
  /** A flow's run: its methods, drawn as a graph above the trace. */
  flowMethods?: FlowShapeMethod[];
}) {
  const live = useLiveExecution(crew, id, initialStatus, renderedAt);
  const status = live.status;
  const active = status ? isActive(status.status) : true;
  const now = useNow(active, renderedAt);
  const trace = useMemo(() => buildTrace(live.events, live.status), [live.events, live.status]);
  // A flow waiting on a nested run hears nothing in its own log while that run works or waits
  // for review: its /status (which shows the nested run's reviews) is read every few seconds.
  const waitingOn = active ? (status?.flow?.current?.nested_run ?? null) : null;
  const { refreshStatus } = live;
  useEffect(() => {
    if (!waitingOn) return;
    const timer = setInterval(refreshStatus, 3000);
    return () => clearInterval(timer);
  }, [waitingOn, refreshStatus]);
  // Review events seen so far: each is a ledger entry, so a new one means a new entry to show.
  const reviewEvents = useMemo(
    () => live.events.filter((e) => e.type.startsWith("review_")).length,
    [live.events],
  );
  const [selection, setSelection] = useState<Selection | null>(
    initialTask ? { type: "task", taskId: initialTask } : null,
  );
  const detailRef = useRef<HTMLDivElement>(null);
  // A review link names its task: with several reviews open, bring that one into view.
  useEffect(() => {
    if (initialTask)
      document.getElementById(`review-${initialTask}`)?.scrollIntoView({ block: "start" });
  }, [initialTask]);

  const select = (s: Selection) => {
    setSelection(s);
    // Below the waterfall on narrow screens: bring the detail into view.
    if (!window.matchMedia("(min-width: 64rem)").matches)
      requestAnimationFrame(() =>
        detailRef.current?.scrollIntoView({ behavior: "smooth", block: "start" }),
      );
  };

  if (!status) {
    return (
      <>
        <PageHeader title={crewName} description={<ShortId id={id} />} />
        {live.statusError ? (
          <Alert tone="danger" title="This run could not be loaded">
            {live.statusError} Reload the page, or go back to the crew's runs.
          </Alert>
        ) : (
          <div className="grid gap-4" aria-busy="true">
            <span className="sr-only">Loading the run…</span>
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-72 w-full" />
          </div>
        )}
      </>
    );
  }

  const metrics = runMetrics(status, live.events, trace, now);
  // Every open review: several when tasks running side by side each wait for one.
  const reviews = status.pending_human_inputs ?? [];
  const taskName = (taskId: string) => trace.tasks.find((t) => t.taskId === taskId)?.name;
  const by = startedByText(status.started_by, status.meta);
  const compared = trace.tasks.filter(
    (t) => t.attempts.filter((a) => a.output).length > 1 || t.attempts.some((a) => a.edit),
  );
  const lastAttempt = trace.tasks.at(-1)?.attempts.at(-1);

  return (
    <>
      <PageHeader
        title={crewName}
        actions={
          <RunActions
            crew={crew}
            status={status}
            events={live.events}
            canStop={canStop}
            canStart={canStart}
            onChanged={live.refreshStatus}
          />
        }
      >
        <RunHeaderFacts status={status} by={by} active={active} mode={live.mode} />
      </PageHeader>

      <div className="grid gap-4">
        <RunSummary status={status} metrics={metrics} />
        <RunOutcome crew={crew} status={status} events={live.events} canStart={canStart} />
        {live.error && (
          <Alert tone="warning" title="Updates are interrupted">
            {live.error} The page keeps trying; reload it if this stays.
          </Alert>
        )}
        {canReview && reviews.length > 0 && (
          <div className={reviews.length > 1 ? "grid gap-3" : "contents"}>
            {reviews.length > 1 && (
              <h2 className="m-0 font-semibold text-base">
                {reviews.length} outputs wait for review
              </h2>
            )}
            {reviews.map((review, i) => (
              <div
                key={`${review.task_id}-${review.attempt}`}
                id={`review-${review.task_id}`}
                className={reviews.length > 1 ? "rounded-xl border bg-card p-4 sm:p-5" : undefined}
              >
                <ReviewPanel
                  crew={crew}
                  executionId={id}
                  pending={review}
                  me={me}
                  claimable={!crew.startsWith("@")}
                  taskName={taskName(review.task_id)}
                  expectedOutput={expectedOutputs[review.task_id]}
                  shortcuts={i === 0}
                  onDone={() => live.refreshStatus()}
                  onChanged={() => live.refreshStatus()}
                />
              </div>
            ))}
          </div>
        )}
        {!canReview &&
          reviews.map((review) => (
            <Alert key={review.task_id} tone="warning" title="Awaiting review">
              “{taskName(review.task_id) ?? review.task_id}” waits for a reviewer; the run goes on
              once they decide.
            </Alert>
          ))}
        {flowMethods && <FlowGraph crew={crew} methods={flowMethods} status={status} />}
        <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Waterfall
            trace={trace}
            now={now}
            follow={active}
            selected={selection}
            onSelect={select}
          />
          <div ref={detailRef} className="min-w-0 scroll-mt-4">
            {selection ? (
              <StepDetail
                trace={trace}
                selection={selection}
                tasks={status.tasks}
                now={now}
                onClose={() => setSelection(null)}
                fork={
                  canStart && !crew.startsWith("@")
                    ? { crew, runId: id, path: status.flow?.path.map((p) => p.method) }
                    : undefined
                }
                empty={
                  <RunInputs inputs={status.inputs}>
                    <RunLineage crew={crew} status={status} />
                  </RunInputs>
                }
              />
            ) : (
              <aside
                aria-labelledby="detail-title"
                data-testid="step-detail"
                className={DETAIL_PANE}
              >
                <RunInputs inputs={status.inputs}>
                  <RunLineage crew={crew} status={status} />
                </RunInputs>
              </aside>
            )}
          </div>
        </div>
        {compared.map((t) => (
          <AttemptCompare key={t.taskId} task={t} />
        ))}
        {trace.artifacts.length > 0 && (
          <RunFiles
            crew={crew}
            id={id}
            files={trace.artifacts}
            taskName={(taskId) => trace.tasks.find((t) => t.taskId === taskId)?.name ?? taskId}
          />
        )}
        {status.status === "completed" && status.result !== null && (
          <RunResult
            result={status.result}
            format={lastAttempt?.format ?? "text"}
            editedBy={lastAttempt?.edit?.reviewer}
          />
        )}
        {reviewEvents > 0 && <RunLedger crew={crew} id={id} revision={reviewEvents} />}
      </div>
    </>
  );
}
