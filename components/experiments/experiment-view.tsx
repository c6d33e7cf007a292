"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Square } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { PageHeader } from "@/components/shell/page-header";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/relative-time";
import { toast } from "@/components/ui/toast";
import { type Experiment, experimentsApi } from "@/lib/api/client";
import { formatTokens, formatUsd } from "@/lib/format/numbers";
import { calibrateJudge, calibrationOutcome } from "./calibration";
import { STATUS_LABEL, STATUS_TONE } from "./experiments-home";
import { GatesList, MatrixTable, PairwiseList } from "./matrix-table";
import { RowsDrilldown } from "./rows-drilldown";

/** An experiment, live while it runs: progress, the matrix, pairwise wins, gates, rows. */
export function ExperimentView({
  crew,
  crewName,
  initial,
  canStop,
  canStart,
}: {
  crew: string;
  crewName: string;
  initial: Experiment;
  canStop: boolean;
  /** May calibrate a judge (which runs it on past decisions). */
  canStart: boolean;
}) {
  const api = experimentsApi(crew);
  const queryClient = useQueryClient();
  const key = ["crews", crew, "experiments", initial.id];
  const { data: x = initial, error } = useQuery({
    queryKey: key,
    queryFn: () => api.experiment(initial.id),
    initialData: initial,
    refetchInterval: (q) => (q.state.data?.status === "running" ? 1500 : false),
  });
  const [baseline, setBaseline] = useState(x.baseline);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  /** A judge calibrated against reviewers' decisions, followed until it is done. */
  async function calibrate(judge: Record<string, unknown>) {
    try {
      const c = await calibrateJudge(api, judge, (started) =>
        toast.info(`Calibrating the judge on ${started.total} past decisions…`),
      );
      const outcome = calibrationOutcome(c);
      if (outcome.ok) toast.success(outcome.text);
      else toast.error(outcome.text);
      await refresh();
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
    }
  }
  return (
    <>
      <ExperimentHeader
        crew={crew}
        crewName={crewName}
        x={x}
        canStop={canStop}
        onStop={async () => {
          await api.stopExperiment(x.id);
          await refresh();
        }}
      />
      {error && (
        <Alert tone="warning" className="mb-4">
          Could not refresh: {error.message}
        </Alert>
      )}
      {x.stop_reason && (
        <Alert tone={x.status === "budget_reached" ? "warning" : "info"} className="mb-4">
          {x.stop_reason}
        </Alert>
      )}
      <ExperimentProgress x={x} />
      <MatrixTable
        experiment={x}
        baseline={baseline}
        onBaseline={setBaseline}
        onCalibrate={canStart ? calibrate : undefined}
      />
      <PairwiseList experiment={x} />
      <GatesList experiment={x} />
      <RowsDrilldown crew={crew} experiment={x} baseline={baseline} />
    </>
  );
}

function ExperimentHeader({
  crew,
  crewName,
  x,
  canStop,
  onStop,
}: {
  crew: string;
  crewName: string;
  x: Experiment;
  canStop: boolean;
  onStop: () => Promise<void>;
}) {
  return (
    <PageHeader
      title={x.name}
      description={
        <>
          <Link href={`/crews/${encodeURIComponent(crew)}/experiments`} className="underline">
            {crewName} experiments
          </Link>{" "}
          · started <RelativeTime iso={x.created_at} /> by {x.created_by}
        </>
      }
    >
      <div className="flex flex-wrap items-center gap-2 pt-1">
        <Badge tone={STATUS_TONE[x.status]}>{STATUS_LABEL[x.status]}</Badge>
        {x.passed !== null && x.gates.length > 0 && (
          <Badge tone={x.passed ? "success" : "danger"}>
            {x.passed ? "Gates passed" : "Gates failed"}
          </Badge>
        )}
        {canStop && x.status === "running" && (
          <ConfirmDialog
            trigger={
              <Button size="sm" variant="secondary">
                <Square aria-hidden />
                Stop
              </Button>
            }
            title="Stop this experiment?"
            description="Runs going now stop; the rest are skipped. The matrix keeps what was scored."
            confirmLabel="Stop experiment"
            onConfirm={onStop}
          />
        )}
      </div>
    </PageHeader>
  );
}

/** Runs done of all, tokens (and cost) against the budget, and the experiment's shape. */
function ExperimentProgress({ x }: { x: Experiment }) {
  const p = x.progress;
  const done = p.scored + p.skipped;
  return (
    <section aria-label="Progress" className="mb-8 grid gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span>
          <span className="font-semibold tabular-nums">{done}</span> of {p.total} runs done
          {p.running ? ` · ${p.running} running` : ""}
          {p.skipped ? ` · ${p.skipped} skipped` : ""}
        </span>
        <span className="text-muted-foreground tabular-nums">
          {formatTokens(x.usage.total_tokens)} tokens
          {x.usage.cost_usd !== null ? ` · ${formatUsd(x.usage.cost_usd)}` : ""}
          {x.budget.max_tokens ? ` of ${formatTokens(x.budget.max_tokens)} budgeted` : ""}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Runs done"
        aria-valuemin={0}
        aria-valuemax={p.total}
        aria-valuenow={done}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full bg-primary transition-[width]"
          style={{ width: `${p.total ? (done / p.total) * 100 : 0}%` }}
        />
      </div>
      <p className="m-0 text-muted-foreground text-xs">
        {x.variants.length} variant{x.variants.length === 1 ? "" : "s"} ×{" "}
        {p.total / Math.max(1, x.variants.length * x.repeats)} rows × {x.repeats} repeat
        {x.repeats === 1 ? "" : "s"}, {x.parallelism} at once
      </p>
    </section>
  );
}
