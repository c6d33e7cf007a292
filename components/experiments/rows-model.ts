import type { Experiment, ExperimentCell } from "@/lib/api/client";

// The rows of an experiment (rows-drilldown.tsx, row-detail.tsx): which score leads, per row.

type Metric = Experiment["matrix"]["metrics"][number];

/** Metrics every run has, scorer or not: their reasons say nothing a person needs. */
const BUILT_IN = ["completed", "latency_s", "tokens", "cost_usd"];
export const isBuiltIn = (metric: string) => BUILT_IN.includes(metric);

/** The score a person looks for first: the first scorer's, else whether runs completed. */
export const leadMetric = (metrics: Metric[]): Metric | undefined =>
  metrics.find((m) => !isBuiltIn(m.name)) ?? metrics[0];

/** The dataset's rows that have cells, in the order they came. */
export const rowNumbers = (cells: ExperimentCell[]) => [...new Set(cells.map((c) => c.row))];

export const cellsOf = (cells: ExperimentCell[], row: number, variant: string) =>
  cells.filter((c) => c.row === row && c.variant === variant);

/** The mean of a metric over cells that have a number for it; null when none has. */
export function meanScore(cells: ExperimentCell[], metric: string | undefined): number | null {
  const vs = cells.flatMap((c) => {
    const v = metric === undefined ? undefined : c.scores[metric]?.value;
    return typeof v === "number" ? [v] : [];
  });
  return vs.length ? vs.reduce((a, b) => a + b, 0) / vs.length : null;
}

/** A row's inputs in one line. */
export const inputsPreview = (inputs: Record<string, unknown>) =>
  Object.values(inputs)
    .map((v) => (typeof v === "string" ? v : JSON.stringify(v)))
    .join(" · ");

/** The repeats among cells, in order. */
export const repeatsOf = (cells: ExperimentCell[]) =>
  [...new Set(cells.map((c) => c.repeat))].sort((p, q) => p - q);

/** The tasks whose outputs the runs kept, besides the final `result`. */
export const taskOutputs = (cells: ExperimentCell[]) =>
  [...new Set(cells.flatMap((c) => Object.keys(c.outputs)))].filter((k) => k !== "result");
