import { z } from "zod";
import type { RunRow } from "@/lib/contract/runs";
import type { TokenUsage } from "@/lib/contract/usage";
import { jsonArray, jsonObject, num } from "@/lib/db/columns";
import { estimateCost, type ModelPrices } from "@/lib/run-model/pricing";
import { EXECUTION_STATUSES } from "@/lib/run-model/states";
import { startedBy } from "./status-view";

// Timestamps are read as text (`::text`): the cursor holds them as PostgreSQL wrote them.
export const ListRow = z.object({
  id: z.string(),
  crew: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  inputs: jsonObject<Record<string, unknown>>(),
  meta: jsonObject<Record<string, unknown>>().nullable(),
  pending_human_input: jsonObject<{
    task_id: string;
    output: string;
    attempt: number;
    requested_at?: string;
  }>().nullable(),
  error: z.string().nullable(),
  token_usage: jsonObject<TokenUsage>().nullable(),
  review_wait_seconds: num,
  started_via: z.string().nullable(),
  started_by_name: z.string().nullable(),
  deployment_id: z.string().nullable(),
  schedule_id: z.string().nullable(),
  trigger_id: z.string().nullable(),
  duration_seconds: num.nullable(),
  usage_by_model: jsonArray<{
    model: string;
    input_tokens: number;
    output_tokens: number;
  }>().nullable(),
});
export type ListRow = z.infer<typeof ListRow>;

/** A listed run as the API gives it: its cost priced from the usage per model. */
export function toRunRow(r: ListRow, prices: ModelPrices): RunRow {
  const cost = estimateCost(r.usage_by_model ?? [], prices);
  return {
    id: r.id,
    crew: r.crew,
    status: r.status,
    started_by: startedBy(r),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    inputs: r.inputs ?? {},
    meta: r.meta ?? {},
    pending_human_input: r.pending_human_input,
    error: r.error,
    token_usage: {
      input_tokens: r.token_usage?.input_tokens ?? 0,
      output_tokens: r.token_usage?.output_tokens ?? 0,
      total_tokens: r.token_usage?.total_tokens ?? 0,
    },
    cost_usd: cost.usd,
    models: cost.models,
    duration_seconds: r.duration_seconds,
    review_wait_seconds: r.review_wait_seconds ?? 0,
  };
}
