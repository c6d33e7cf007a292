"use client";

import { useQuery } from "@tanstack/react-query";
import { Database, FlaskConical, GitBranch } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { ListSection } from "@/components/automation/list-section";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { type Dataset, type Experiment, experimentsApi, type Variant } from "@/lib/api/client";
import { DatasetDialog } from "./dataset-dialog";
import { DatasetRow } from "./dataset-row";
import { ExperimentDialog } from "./experiment-dialog";
import { experimentsPollMs } from "./experiments-poll";
import { type CrewShape, VariantDialog } from "./variant-dialog";
import { changesSummary } from "./variant-summary";

export const STATUS_TONE: Record<Experiment["status"], BadgeTone> = {
  running: "info",
  completed: "success",
  stopped: "neutral",
  budget_reached: "warning",
};
export const STATUS_LABEL: Record<Experiment["status"], string> = {
  running: "Running",
  completed: "Completed",
  stopped: "Stopped",
  budget_reached: "Budget reached",
};

/** An experiment as the crew's list gives it: without its matrix. */
type Listed = Awaited<
  ReturnType<ReturnType<typeof experimentsApi>["experiments"]>
>["experiments"][number];

/** Datasets, variants and experiments of one crew, each with its way to make a new one. */
export function ExperimentsHome({
  crew,
  canEdit,
  canReview,
  ...shape
}: CrewShape & { crew: string; canEdit: boolean; canReview: boolean; flow: boolean }) {
  const api = experimentsApi(crew);
  const datasets = useQuery({ queryKey: ["crews", crew, "datasets"], queryFn: api.datasets });
  const variants = useQuery({ queryKey: ["crews", crew, "variants"], queryFn: api.variants });
  const experiments = useQuery({
    queryKey: ["crews", crew, "experiments"],
    queryFn: api.experiments,
    refetchInterval: (q) => experimentsPollMs(q.state.data?.experiments),
  });
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="grid min-w-0 content-start gap-8">
        <ExperimentsSection
          crew={crew}
          experiments={experiments.data?.experiments}
          error={experiments.error}
          action={
            canEdit && (
              <ExperimentDialog
                crew={crew}
                datasets={datasets.data?.datasets ?? []}
                variants={variants.data?.variants ?? []}
                tasks={shape.tasks}
                canReview={canReview}
              />
            )
          }
        />
      </div>
      <div className="grid min-w-0 content-start gap-8">
        <DatasetsSection
          crew={crew}
          canEdit={canEdit}
          datasets={datasets.data?.datasets}
          error={datasets.error}
        />
        <VariantsSection
          variants={variants.data?.variants}
          error={variants.error}
          flow={shape.flow}
          action={canEdit && !shape.flow && <VariantDialog crew={crew} {...shape} />}
        />
      </div>
    </div>
  );
}

/** The crew's experiments, newest state polled, each linking to its matrix. */
function ExperimentsSection({
  crew,
  experiments,
  error,
  action,
}: {
  crew: string;
  experiments: Listed[] | undefined;
  error: Error | null;
  action: ReactNode;
}) {
  return (
    <ListSection
      id="experiments"
      title="Experiments"
      action={action}
      error={error}
      loading={!experiments}
      empty={
        experiments?.length === 0 ? (
          <EmptyState icon={FlaskConical} title="No experiments yet">
            Make a dataset, then run it through the crew as it is and a variant or two: the matrix
            shows which does better, and by how much.
          </EmptyState>
        ) : null
      }
    >
      {experiments?.map((x) => (
        <ExperimentItem key={x.id} crew={crew} experiment={x} />
      ))}
    </ListSection>
  );
}

function ExperimentItem({ crew, experiment: x }: { crew: string; experiment: Listed }) {
  return (
    <li className="grid gap-1 px-3 py-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href={`/crews/${encodeURIComponent(crew)}/experiments/${x.id}`}
          className="font-medium underline-offset-4 hover:underline"
        >
          {x.name}
        </Link>
        <Badge tone={STATUS_TONE[x.status]}>{STATUS_LABEL[x.status]}</Badge>
      </div>
      <p className="m-0 text-muted-foreground text-xs">
        {x.variants.map((v) => v.name).join(" vs ")} · {x.progress.scored} of {x.progress.total}{" "}
        runs scored · started <RelativeTime iso={x.created_at} /> by {x.created_by}
      </p>
    </li>
  );
}

function DatasetsSection({
  crew,
  canEdit,
  datasets,
  error,
}: {
  crew: string;
  canEdit: boolean;
  datasets: Dataset[] | undefined;
  error: Error | null;
}) {
  return (
    <ListSection
      id="datasets"
      title="Datasets"
      action={canEdit && <DatasetDialog crew={crew} />}
      error={error}
      loading={!datasets}
      empty={
        datasets?.length === 0 ? (
          <EmptyState icon={Database} title="No datasets">
            Rows of inputs, each with the outputs a reviewer would accept: upload a CSV, or collect
            them from reviewed runs.
          </EmptyState>
        ) : null
      }
    >
      {datasets?.map((d) => (
        <DatasetRow key={d.id} crew={crew} dataset={d} canEdit={canEdit} />
      ))}
    </ListSection>
  );
}

function VariantsSection({
  variants,
  error,
  flow,
  action,
}: {
  variants: Variant[] | undefined;
  error: Error | null;
  flow: boolean;
  action: ReactNode;
}) {
  return (
    <ListSection
      id="variants"
      title="Variants"
      action={action}
      error={error}
      loading={!variants}
      empty={
        variants?.length === 0 ? (
          <EmptyState icon={GitBranch} title="No variants">
            {flow
              ? "A flow is compared as it is; its crews' variants are made on their own pages."
              : "A variant changes a model, a prompt or the process — as data, never in the crew's files."}
          </EmptyState>
        ) : null
      }
    >
      {variants?.map((v) => (
        <li key={v.id} className="grid gap-1 px-3 py-3 text-sm">
          <span className="font-medium">{v.name}</span>
          <span className="text-muted-foreground text-xs">{changesSummary(v.changes)}</span>
          <span className="font-mono text-muted-foreground text-xs" title="Definition key">
            {v.definition_key.slice(0, 12)}
          </span>
        </li>
      ))}
    </ListSection>
  );
}
