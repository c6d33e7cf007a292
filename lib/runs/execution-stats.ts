import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { RunStats } from "@/lib/contract/runs";
import { num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { estimateCost, type ModelPrices } from "@/lib/run-model/pricing";

const DayRow = z.object({
  day: z.string(),
  completed: num,
  error: num,
  cancelled: num,
  other: num,
  avg_seconds: num.nullable(),
  max_seconds: num.nullable(),
  p50_seconds: num.nullable(),
  p95_seconds: num.nullable(),
  review_wait_p50_seconds: num.nullable(),
  input_tokens: num,
  output_tokens: num,
});

const CountRow = z.object({ status: z.string(), n: num });
const ModelDayRow = z.object({
  day: z.string(),
  model: z.string(),
  input_tokens: num,
  output_tokens: num,
});
const Percentiles = z.object({ p50_seconds: num.nullable(), p95_seconds: num.nullable() });

const DURATION = "EXTRACT(EPOCH FROM e.finished_at - e.started_at)";
const DONE = "FILTER (WHERE e.status = 'completed')";

/** Whose runs count (a person's own, else all), and how many days back the window starts. */
type Scope = { own: string; back: string };

const DAY_SQL = ({ own, back }: Scope) =>
  `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
            count(*) FILTER (WHERE e.status = 'completed')::int AS completed,
            count(*) FILTER (WHERE e.status = 'error')::int AS error,
            count(*) FILTER (WHERE e.status = 'cancelled')::int AS cancelled,
            count(*) FILTER (WHERE e.status NOT IN ('completed', 'error', 'cancelled'))::int AS other,
            avg(${DURATION}) ${DONE}::float AS avg_seconds,
            max(${DURATION}) ${DONE}::float AS max_seconds,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY ${DURATION}) ${DONE}::float AS p50_seconds,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY ${DURATION}) ${DONE}::float AS p95_seconds,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY e.review_wait_seconds)
              FILTER (WHERE e.status = 'completed' AND e.review_wait_seconds > 0)::float AS review_wait_p50_seconds,
            COALESCE(sum((e.token_usage->>'input_tokens')::bigint), 0)::float AS input_tokens,
            COALESCE(sum((e.token_usage->>'output_tokens')::bigint), 0)::float AS output_tokens
       FROM generate_series(current_date - ${back}, current_date, interval '1 day') AS d(day)
       LEFT JOIN executions e ON e.created_at >= d.day AND e.created_at < d.day + interval '1 day' ${own}
      GROUP BY d.day ORDER BY d.day`;

// Cost needs each task's model: the window's tokens by day and model.
const MODEL_DAY_SQL = ({ own, back }: Scope) =>
  `SELECT to_char(e.created_at::date, 'YYYY-MM-DD') AS day, t.value->'models'->>0 AS model,
            sum(COALESCE((t.value->'token_usage'->>'input_tokens')::bigint, 0))::float AS input_tokens,
            sum(COALESCE((t.value->'token_usage'->>'output_tokens')::bigint, 0))::float AS output_tokens
       FROM executions e, jsonb_array_elements(e.tasks) t
      WHERE e.created_at >= current_date - ${back} AND t.value->'models'->>0 IS NOT NULL ${own}
      GROUP BY 1, 2`;

const PERCENTILES_SQL = ({ own, back }: Scope) =>
  `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ${DURATION}) ${DONE}::float AS p50_seconds,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY ${DURATION}) ${DONE}::float AS p95_seconds
       FROM executions e WHERE e.created_at >= current_date - ${back} ${own}`;

type Figures = {
  counts: z.infer<typeof CountRow>[];
  dayRows: z.infer<typeof DayRow>[];
  byModel: z.infer<typeof ModelDayRow>[];
  window: z.infer<typeof Percentiles> | undefined;
};

/** The figures as the overview shows them: each day's cost, the window's totals and rates. */
export function statsOf(
  { counts, dayRows, byModel, window }: Figures,
  days: number,
  prices: ModelPrices,
): RunStats {
  const costOf = (rows: typeof byModel) => (rows.length ? estimateCost(rows, prices).usd : 0);
  const list = dayRows.map((d) => ({
    ...d,
    cost_usd: costOf(byModel.filter((m) => m.day === d.day)),
  }));
  const sum = (
    k: "completed" | "error" | "cancelled" | "other" | "input_tokens" | "output_tokens",
  ) => list.reduce((n, d) => n + d[k], 0);
  const finished = sum("completed") + sum("error") + sum("cancelled");
  const n = (st: string) => counts.find((c) => c.status === st)?.n ?? 0;
  return {
    awaiting_review: n("pending_human_input"),
    running: n("running") + n("queued"),
    window_days: days,
    days: list,
    totals: {
      runs: finished + sum("other"),
      completed: sum("completed"),
      failed: sum("error"),
      stopped: sum("cancelled"),
      failure_rate: finished ? Math.round((sum("error") / finished) * 10_000) / 10_000 : null,
      input_tokens: sum("input_tokens"),
      output_tokens: sum("output_tokens"),
      cost_usd: costOf(byModel),
      p50_seconds: window?.p50_seconds ?? null,
      p95_seconds: window?.p95_seconds ?? null,
    },
  };
}

/**
 * The overview's figures: what needs attention, and the last `days` days (today included) by
 * outcome, duration, review wait, tokens and estimated cost, with totals over the window.
 */
export async function executionStats({
  db,
  principal,
  days = 14,
  prices,
}: {
  db: Db;
  principal: Principal;
  days?: number;
  prices: ModelPrices;
}): Promise<RunStats> {
  const own = principal.kind === "user" ? "AND owner_user_id = $1" : "";
  const mine: unknown[] = principal.kind === "user" ? [principal.userId] : [];
  const { rows: counts } = await db.query(
    `SELECT status, count(*)::int AS n FROM executions WHERE status IN ('pending_human_input', 'running', 'queued') ${own} GROUP BY status`,
    mine,
    CountRow,
  );
  const params = [...mine, days - 1];
  const scope: Scope = { own, back: `$${params.length}::int` };
  const { rows: dayRows } = await db.query(DAY_SQL(scope), params, DayRow);
  const { rows: byModel } = await db.query(MODEL_DAY_SQL(scope), params, ModelDayRow);
  const { rows: totals } = await db.query(PERCENTILES_SQL(scope), params, Percentiles);
  return statsOf({ counts, dayRows, byModel, window: totals[0] }, days, prices);
}
