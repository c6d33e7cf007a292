"use client";

import { useQuery } from "@tanstack/react-query";
import { Database, FlaskConical, GitBranch } from "lucide-react";
import Link from "next/link";
import { ListSection } from "@/components/automation/list-section";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { type Experiment, experimentsApi } from "@/lib/api/client";
import { DatasetDialog } from "./dataset-dialog";
import { DatasetRow } from "./dataset-row";
import { ExperimentDialog } from "./experiment-dialog";
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
    refetchInterval: (q) =>
      q.state.data?.experiments.some((x) => x.status === "running") ? 2000 : 30_000,
  });
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="grid min-w-0 content-start gap-8">
        <ListSection
          id="experiments"
          title="Experiments"
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
          error={experiments.error}
          loading={!experiments.data}
          empty={
            experiments.data?.experiments.length === 0 ? (
              <EmptyState icon={FlaskConical} title="No experiments yet">
                Make a dataset, then run it through the crew as it is and a variant or two: the
                matrix shows which does better, and by how much.
              </EmptyState>
            ) : null
          }
        >
          {experiments.data?.experiments.map((x) => (
            <li key={x.id} className="grid gap-1 px-3 py-3 text-sm">
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
                {x.variants.map((v) => v.name).join(" vs ")} · {x.progress.scored} of{" "}
                {x.progress.total} runs scored · started <RelativeTime iso={x.created_at} /> by{" "}
                {x.created_by}
              </p>
            </li>
          ))}
        </ListSection>
      </div>
      <div className="grid min-w-0 content-start gap-8">
        <ListSection
          id="datasets"
          title="Datasets"
          action={canEdit && <DatasetDialog crew={crew} />}
          error={datasets.error}
          loading={!datasets.data}
          empty={
            datasets.data?.datasets.length === 0 ? (
              <EmptyState icon={Database} title="No datasets">
                Rows of inputs, each with the outputs a reviewer would accept: upload a CSV, or
                collect them from reviewed runs.
              </EmptyState>
            ) : null
          }
        >
          {datasets.data?.datasets.map((d) => (
            <DatasetRow key={d.id} crew={crew} dataset={d} canEdit={canEdit} />
          ))}
        </ListSection>
        <ListSection
          id="variants"
          title="Variants"
          action={canEdit && !shape.flow && <VariantDialog crew={crew} {...shape} />}
          error={variants.error}
          loading={!variants.data}
          empty={
            variants.data?.variants.length === 0 ? (
              <EmptyState icon={GitBranch} title="No variants">
                {shape.flow
                  ? "A flow is compared as it is; its crews' variants are made on their own pages."
                  : "A variant changes a model, a prompt or the process — as data, never in the crew's files."}
              </EmptyState>
            ) : null
          }
        >
          {variants.data?.variants.map((v) => (
            <li key={v.id} className="grid gap-1 px-3 py-3 text-sm">
              <span className="font-medium">{v.name}</span>
              <span className="text-muted-foreground text-xs">{changesSummary(v.changes)}</span>
              <span className="font-mono text-muted-foreground text-xs" title="Definition key">
                {v.definition_key.slice(0, 12)}
              </span>
            </li>
          ))}
        </ListSection>
      </div>
    </div>
  );
}
