import { z } from "zod";

// GET /api/runs as the list reads it. The newer per-run fields are optional so the list renders
// against a server that does not send them yet (they show as "—").
const Usage = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: z.number(),
});
const StartedBy = z.object({
  via: z.enum(["dashboard", "api", "deployment"]),
  name: z.string().nullable(),
});

export const RunRowSchema = z.object({
  id: z.string(),
  crew: z.string(),
  status: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  inputs: z.record(z.string(), z.unknown()),
  pending_human_input: z
    .object({ task_id: z.string(), output: z.string(), attempt: z.number() })
    .nullable(),
  error: z.string().nullable(),
  started_by: z.union([StartedBy, z.string()]).nullable().optional(),
  token_usage: Usage.nullable().optional(),
  cost_usd: z.number().nullable().optional(),
  duration_seconds: z.number().nullable().optional(),
  review_wait_seconds: z.number().optional(),
  models: z.array(z.string()).optional(),
  meta: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const RunsPageSchema = z.object({
  runs: z.array(RunRowSchema),
  per_page: z.number(),
  next_cursor: z.string().nullable(),
  prev_cursor: z.string().nullable(),
  total: z.number(),
  total_capped: z.boolean(),
});
