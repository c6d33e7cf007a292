import { z } from "zod";

// GET /api/runs/stats as the overview reads it; the per-day percentiles, tokens and cost and the
// window's totals are optional so the page renders against a server without them.
const n = z.number().nullable().optional();

export const StatsDaySchema = z.object({
  day: z.string(),
  completed: z.number(),
  error: z.number(),
  cancelled: z.number(),
  other: z.number(),
  avg_seconds: z.number().nullable().optional(),
  max_seconds: z.number().nullable().optional(),
  p50_seconds: n,
  p95_seconds: n,
  review_wait_p50_seconds: n,
  input_tokens: n,
  output_tokens: n,
  cost_usd: n,
});

export const StatsSchema = z.object({
  awaiting_review: z.number(),
  running: z.number(),
  days: z.array(StatsDaySchema),
  totals: z
    .object({
      runs: z.number(),
      completed: z.number(),
      failed: z.number(),
      stopped: z.number(),
      failure_rate: z.number().nullable(),
      input_tokens: z.number(),
      output_tokens: z.number(),
      cost_usd: z.number().nullable(),
      p50_seconds: z.number().nullable(),
      p95_seconds: z.number().nullable(),
    })
    .optional(),
});
export type Stats = z.infer<typeof StatsSchema>;
export type StatsDay = z.infer<typeof StatsDaySchema>;

/** The window's totals: the server's when it sends them, else what the days add up to. */
export function totalsOf(stats: Stats) {
  if (stats.totals) return stats.totals;
  const sum = (f: (d: StatsDay) => number) => stats.days.reduce((a, d) => a + f(d), 0);
  const completed = sum((d) => d.completed);
  const failed = sum((d) => d.error);
  const stopped = sum((d) => d.cancelled);
  const finished = completed + failed + stopped;
  return {
    runs: sum((d) => d.completed + d.error + d.cancelled + d.other),
    completed,
    failed,
    stopped,
    failure_rate: finished ? failed / finished : null,
    input_tokens: sum((d) => d.input_tokens ?? 0),
    output_tokens: sum((d) => d.output_tokens ?? 0),
    cost_usd: stats.days.some((d) => typeof d.cost_usd === "number")
      ? sum((d) => d.cost_usd ?? 0)
      : null,
    p50_seconds: null,
    p95_seconds: null,
  };
}
