"use client";

import dynamic from "next/dynamic";
import { useEffect, useMemo } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { ShortId } from "@/components/ui/short-id";
import { Skeleton } from "@/components/ui/skeleton";
import { useLiveExecution } from "@/components/use-live-execution";
import type { StatusResponse } from "@/lib/contract/status";
import { isActive } from "@/lib/run-model/states";
import { FlowGraph } from "./flow-graph";
import type { FlowShapeMethod } from "./flow-layout";
import { RunActions } from "./run-actions";
import { RunHeaderFacts } from "./run-header-facts";
import { runMetrics } from "./run-metrics";
import { RunOutcome } from "./run-outcome";
import { RunReviews } from "./run-reviews";
import { RunSummary } from "./run-summary";
import { RunTracePane } from "./run-trace-pane";
import { startedByText } from "./run-types";
import { comparedTasks, flowWaitingOn, forkFrom, reviewEventCount } from "./run-view-model";
import { buildTrace } from "./trace-model";
import type { Trace } from "./trace-types";
import { useNow } from "./use-now";

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

type RunViewProps = {
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
};

/** A run as a trace: header and figures, the waterfall with a detail pane, review, result. */
export function RunView(props: RunViewProps) {
  const { crew, crewName, id, initialStatus, renderedAt, initialTask } = props;
  const live = useLiveExecution(crew, id, initialStatus, renderedAt);
  const status = live.status;
  const active = status ? isActive(status.status) : true;
  const now = useNow(active, renderedAt);
  const trace = useMemo(() => buildTrace(live.events, live.status), [live.events, live.status]);
  usePolledStatus(flowWaitingOn(status, active), live.refreshStatus);
  const reviewEvents = useMemo(() => reviewEventCount(live.events), [live.events]);
  // A review link names its task: with several reviews open, bring that one into view.
  useEffect(() => {
    if (initialTask)
      document.getElementById(`review-${initialTask}`)?.scrollIntoView({ block: "start" });
  }, [initialTask]);
  if (!status) return <RunLoading crewName={crewName} id={id} error={live.statusError} />;
  return (
    <RunPage
      {...props}
      live={live}
      status={status}
      active={active}
      now={now}
      trace={trace}
      reviewEvents={reviewEvents}
    />
  );
}

/** A flow waiting on a nested run reads its /status every few seconds while it waits. */
function usePolledStatus(waitingOn: string | null, refreshStatus: () => void) {
  useEffect(() => {
    if (!waitingOn) return;
    const timer = setInterval(refreshStatus, 3000);
    return () => clearInterval(timer);
  }, [waitingOn, refreshStatus]);
}

function RunLoading({
  crewName,
  id,
  error,
}: {
  crewName: string;
  id: string;
  error: string | null | undefined;
}) {
  return (
    <>
      <PageHeader title={crewName} description={<ShortId id={id} />} />
      {error ? (
        <Alert tone="danger" title="This run could not be loaded">
          {error} Reload the page, or go back to the crew's runs.
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

type RunPageProps = RunViewProps & {
  live: ReturnType<typeof useLiveExecution>;
  status: StatusResponse;
  active: boolean;
  now: number;
  trace: Trace;
  reviewEvents: number;
};

function RunPage(props: RunPageProps) {
  const { crew, id, canStart, live, status, active, now, trace } = props;
  const metrics = runMetrics(status, live.events, trace, now);
  const taskName = (taskId: string) => trace.tasks.find((t) => t.taskId === taskId)?.name;
  return (
    <>
      <PageHeader
        title={props.crewName}
        actions={
          <RunActions
            crew={crew}
            status={status}
            events={live.events}
            canStop={props.canStop}
            canStart={canStart}
            onChanged={live.refreshStatus}
          />
        }
      >
        <RunHeaderFacts
          status={status}
          by={startedByText(status.started_by, status.meta)}
          active={active}
          mode={live.mode}
        />
      </PageHeader>

      <div className="grid gap-4">
        <RunSummary status={status} metrics={metrics} />
        <RunOutcome crew={crew} status={status} events={live.events} canStart={canStart} />
        {live.error && (
          <Alert tone="warning" title="Updates are interrupted">
            {live.error} The page keeps trying; reload it if this stays.
          </Alert>
        )}
        <RunReviews
          crew={crew}
          executionId={id}
          reviews={status.pending_human_inputs ?? []}
          canReview={props.canReview}
          me={props.me}
          expectedOutputs={props.expectedOutputs}
          taskName={taskName}
          onChanged={() => live.refreshStatus()}
        />
        {props.flowMethods && <FlowGraph crew={crew} methods={props.flowMethods} status={status} />}
        <RunTracePane
          crew={crew}
          trace={trace}
          status={status}
          now={now}
          active={active}
          initialTask={props.initialTask}
          fork={forkFrom(canStart, crew, id, status)}
        />
        <RunAfterTrace
          crew={crew}
          id={id}
          status={status}
          trace={trace}
          reviewEvents={props.reviewEvents}
        />
      </div>
    </>
  );
}

/** Below the trace: attempts compared, the run's files, its result and its review ledger. */
function RunAfterTrace({
  crew,
  id,
  status,
  trace,
  reviewEvents,
}: {
  crew: string;
  id: string;
  status: StatusResponse;
  trace: Trace;
  reviewEvents: number;
}) {
  const lastAttempt = trace.tasks.at(-1)?.attempts.at(-1);
  return (
    <>
      {comparedTasks(trace).map((t) => (
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
    </>
  );
}
