import { z } from "zod";
import { EXECUTION_STATUSES } from "./states";
import { StartedBySchema, TokenUsageSchema } from "./usage";

// Executions across crews: the runs table, the overview's figures and the review figures.
// GET /api/runs: one page of the runs table.
export const RunRowSchema = z
  .object({
    id: z.uuid(),
    crew: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    started_by: StartedBySchema,
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    inputs: z.record(z.string(), z.unknown()),
    meta: z.record(z.string(), z.unknown()),
    pending_human_input: z
      .object({
        task_id: z.string(),
        output: z.string(),
        attempt: z.number().int(),
        requested_at: z.string().optional().describe("Absent for some remote deployments' runs"),
      })
      .nullable(),
    error: z.string().nullable(),
    token_usage: TokenUsageSchema,
    cost_usd: z
      .number()
      .nullable()
      .describe("Estimated; null when no model the run used has a known price"),
    models: z.array(z.string()),
    duration_seconds: z.number().nullable().describe("Start to finish; null until it finishes"),
    review_wait_seconds: z.number(),
  })
  .meta({ id: "RunRow" });

export const RunsPageSchema = z
  .object({
    runs: z.array(RunRowSchema),
    per_page: z.number().int(),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
    total: z.number().int(),
    total_capped: z.boolean().describe("True: more than `total` runs match"),
  })
  .meta({ id: "RunsPage" });

// GET /api/runs/stats: the overview's figures.
/** What runs spent: their tokens, and their cost where every model used has a price. */
const spendFields = {
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().nullable(),
};

export const RunStatsDaySchema = z.object({
  day: z.string().describe("YYYY-MM-DD (server time zone)"),
  completed: z.number().int(),
  error: z.number().int(),
  cancelled: z.number().int(),
  other: z.number().int(),
  avg_seconds: z.number().nullable(),
  max_seconds: z.number().nullable(),
  p50_seconds: z.number().nullable().describe("Median duration of the day's completed runs"),
  p95_seconds: z.number().nullable(),
  review_wait_p50_seconds: z
    .number()
    .nullable()
    .describe("Median review wait of the day's completed runs that waited for review"),
  ...spendFields,
});

export const RunStatsSchema = z
  .object({
    awaiting_review: z.number().int(),
    running: z.number().int(),
    window_days: z.number().int(),
    days: z.array(RunStatsDaySchema),
    totals: z.object({
      runs: z.number().int(),
      completed: z.number().int(),
      failed: z.number().int(),
      stopped: z.number().int(),
      failure_rate: z
        .number()
        .nullable()
        .describe("failed / finished (completed + failed + stopped); null when none finished"),
      ...spendFields,
      p50_seconds: z.number().nullable(),
      p95_seconds: z.number().nullable(),
    }),
  })
  .meta({ id: "RunStats" });

export const RunStatsQuerySchema = z.object({
  days: z.coerce
    .number({ error: "days must be a number" })
    .int("days must be a whole number")
    .min(1, "days must be 1 to 90")
    .max(90, "days must be 1 to 90")
    .default(14),
});

// GET /api/runs/review-stats: how reviews went (issue 15, item 7), from the runs' review events.
const seconds = z.number().nullable();
export const ReviewFiguresSchema = z.object({
  requests: z.number().int().describe("Review requests (one per task attempt that waited)"),
  answered: z.number().int().describe("Requests a person acted on (claimed, voted or decided)"),
  first_review_p50_seconds: seconds.describe(
    "Median time from a review request to the first person's action on it",
  ),
  first_review_p95_seconds: seconds,
  decisions: z
    .number()
    .int()
    .describe("Final decisions: approved or sent back (a quorum's single votes are not counted)"),
  approved: z.number().int(),
  sent_back: z.number().int(),
  approval_rate: z.number().nullable().describe("approved / decisions; null without decisions"),
  reviewed_tasks: z.number().int().describe("Tasks (per run) with at least one decision or vote"),
  send_back_rounds_avg: z.number().nullable().describe("Send-backs per reviewed task, on average"),
  send_back_rounds_max: z.number().int(),
  timeouts: z.number().int(),
  timeouts_by_action: z
    .record(z.string(), z.number().int())
    .describe("Timed-out reviews by what the deadline did: approve, send_back, stop, escalate"),
});
export const ReviewStatsSchema = z
  .object({
    window_days: z.number().int(),
    crew: z.string().nullable(),
    totals: ReviewFiguresSchema,
    by_crew: z.array(ReviewFiguresSchema.extend({ crew: z.string() })),
    by_reviewer: z.array(
      z.object({
        reviewer: z.string().describe("E-mail, or the token that decided"),
        decisions: z.number().int().describe("Every decision and quorum vote they gave"),
        approvals: z.number().int(),
        sent_back: z.number().int(),
        approval_rate: z.number().nullable(),
        decide_p50_seconds: seconds.describe("Median time from the request to their decision"),
      }),
    ),
  })
  .meta({ id: "ReviewStats" });

export const ReviewStatsQuerySchema = RunStatsQuerySchema.extend({
  crew: z.string().trim().min(1).max(200).optional().describe("Only this crew's runs"),
});

export type RunRow = z.infer<typeof RunRowSchema>;
export type RunsPage = z.infer<typeof RunsPageSchema>;
export type RunStats = z.infer<typeof RunStatsSchema>;
export type ReviewFigures = z.infer<typeof ReviewFiguresSchema>;
export type ReviewStats = z.infer<typeof ReviewStatsSchema>;
