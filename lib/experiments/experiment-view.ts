import { z } from "zod";
import type { OwnerScope as Scope } from "@/lib/auth/principal";
import type { Experiment, ExperimentCreate, Scorer } from "@/lib/contract/experiments";
import { jsonObject, num, time } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { latestCalibrations } from "./calibration-store";
import { judgeKey } from "./judge";
import { gatesOf, matrixOf, pairwiseOf } from "./matrix";
import { cellMetrics, metricsOf, type Score } from "./scorers";

// An experiment as the API and the dashboard show it: its spec, progress, usage, the matrix
// and, once it has ended, whether its gates held.

export type ExperimentSpec = Pick<
  ExperimentCreate,
  "repeats" | "parallelism" | "scorers" | "gates" | "reviews"
> & { budget: { max_tokens?: number; max_cost_usd?: number }; baseline: string; rows: number };

const OWNED = "($2::uuid IS NULL OR x.owner_user_id = $2::uuid)";

export const ExperimentRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  dataset_id: z.string().nullable(),
  spec: jsonObject<ExperimentSpec>(),
  status: z.enum(["running", "completed", "stopped", "budget_reached"]),
  stop_reason: z.string().nullable(),
  owner_user_id: z.string().nullable(),
  token_id: z.string().nullable(),
  created_by: z.string(),
  created_at: time,
  finished_at: time.nullable(),
});
export type ExperimentRow = z.infer<typeof ExperimentRow>;

const SELECT = `SELECT x.id, x.crew, x.name, x.dataset_id, x.spec, x.status, x.stop_reason, x.owner_user_id,
       x.token_id, x.created_by, x.created_at, x.finished_at FROM experiments x`;

export async function experimentRow(
  q: Queryable,
  scope: Scope,
  id: string,
): Promise<ExperimentRow> {
  const { rows } = await q.query(
    `${SELECT} WHERE x.crew = $1 AND ${OWNED} AND x.id = $3::uuid`,
    [scope.crew, scope.owner, id],
    ExperimentRow,
  );
  if (!rows[0]) throw errors.notFound(`No experiment '${id}' for crew '${scope.crew}'.`);
  return rows[0];
}

const VariantRow = z.object({
  experiment_id: z.string(),
  name: z.string(),
  variant_id: z.string().nullable(),
  definition_key: z.string(),
  changes: jsonObject<Record<string, unknown>>(),
});
const CountsRow = z.object({
  experiment_id: z.string(),
  status: z.string(),
  n: num,
  tokens: num,
  cost: z.number().nullable(),
});

/** Each experiment as the list and its page show it: two queries, however many there are. */
async function summaries(q: Queryable, rows: ExperimentRow[]) {
  const ids = rows.map((r) => r.id);
  const [{ rows: variants }, { rows: counts }] = await Promise.all([
    q.query(
      `SELECT experiment_id, name, variant_id, definition_key, changes FROM experiment_variants
        WHERE experiment_id = ANY($1::uuid[]) ORDER BY experiment_id, position`,
      [ids],
      VariantRow,
    ),
    q.query(
      `SELECT experiment_id, status, count(*)::int AS n,
              coalesce(sum((usage->>'tokens')::bigint), 0)::float AS tokens,
              sum((usage->>'cost_usd')::float) AS cost
         FROM experiment_cells WHERE experiment_id = ANY($1::uuid[]) GROUP BY experiment_id, status`,
      [ids],
      CountsRow,
    ),
  ]);
  return rows.map((row) =>
    summaryOf(
      row,
      variants.filter((v) => v.experiment_id === row.id).map(({ experiment_id: _, ...v }) => v),
      counts.filter((c) => c.experiment_id === row.id),
    ),
  );
}

function summaryOf(
  row: ExperimentRow,
  variants: Omit<z.infer<typeof VariantRow>, "experiment_id">[],
  counts: z.infer<typeof CountsRow>[],
) {
  const count = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  const scored = counts.filter((c) => c.cost !== null);
  return {
    id: row.id,
    crew: row.crew,
    name: row.name,
    dataset_id: row.dataset_id,
    status: row.status,
    stop_reason: row.stop_reason,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    repeats: row.spec.repeats,
    reviews: row.spec.reviews ?? "skip",
    parallelism: row.spec.parallelism,
    budget: row.spec.budget,
    baseline: row.spec.baseline,
    variants,
    scorers: row.spec.scorers,
    progress: {
      total: counts.reduce((a, c) => a + c.n, 0),
      pending: count("pending"),
      running: count("running"),
      scored: count("scored"),
      skipped: count("skipped"),
    },
    usage: {
      total_tokens: Math.round(counts.reduce((a, c) => a + c.tokens, 0)),
      cost_usd: scored.length
        ? Math.round(scored.reduce((a, c) => a + (c.cost ?? 0), 0) * 1e6) / 1e6
        : null,
    },
  };
}

export async function listExperiments(q: Queryable, scope: Scope) {
  const { rows } = await q.query(
    `${SELECT} WHERE x.crew = $1 AND ${OWNED} ORDER BY x.created_at DESC LIMIT 100`,
    [scope.crew, scope.owner],
    ExperimentRow,
  );
  return (await summaries(q, rows)).map((s) => ({ ...s, gates: [], passed: null }));
}

const CellScores = z.object({ variant: z.string(), scores: jsonObject<Record<string, Score>>() });
const PairRow = z.object({ metric: z.string(), winner: z.enum(["a", "b", "tie"]).nullable() });

export async function getExperiment(q: Queryable, scope: Scope, id: string): Promise<Experiment> {
  const row = await experimentRow(q, scope, id);
  const [summary] = await summaries(q, [row]);
  if (!summary) throw errors.notFound(`No experiment '${id}' for crew '${scope.crew}'.`);
  const [{ rows: cells }, { rows: pairs }] = await Promise.all([
    q.query(
      "SELECT variant, scores FROM experiment_cells WHERE experiment_id = $1 AND status = 'scored'",
      [id],
      CellScores,
    ),
    q.query(
      "SELECT metric, verdict->>'winner' AS winner FROM experiment_pairs WHERE experiment_id = $1",
      [id],
      PairRow,
    ),
  ]);
  const metrics = cellMetrics(row.spec.scorers);
  const names = summary.variants.map((v) => v.name);
  const stats = matrixOf(metrics, names, row.spec.baseline, cells);
  const judges = metrics.flatMap((m) => (m.scorer?.type === "judge" ? [judgeKey(m.scorer)] : []));
  const calibrations = await latestCalibrations(q, row.crew, judges);
  const pairwiseScorers = pairScorers(row.spec.scorers);
  const ended = row.status !== "running";
  const gates = ended ? gatesOf(row.spec.gates, metrics, stats, row.spec.baseline) : [];
  return {
    ...summary,
    matrix: {
      metrics: metrics.map((m) => ({
        name: m.name,
        kind: m.kind,
        better: m.better,
        ...(m.scorer?.type === "judge"
          ? { calibration: calibrations.get(judgeKey(m.scorer)) ?? null, judge: m.scorer }
          : {}),
      })),
      stats,
    },
    pairwise: pairwiseOf(pairwiseScorers, pairs),
    gates,
    passed: ended ? gates.every((g) => g.passed) : null,
  };
}

/** The pairwise judges, by their metric names. */
export function pairScorers(scorers: Scorer[]) {
  return metricsOf(scorers).flatMap((m) =>
    m.scorer?.type === "pairwise"
      ? [{ name: m.name, scorer: m.scorer, variants: m.scorer.variants }]
      : [],
  );
}
