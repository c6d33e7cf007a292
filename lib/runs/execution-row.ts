import { z } from "zod";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject, num, time } from "@/lib/db/columns";
import { EXECUTION_STATUSES } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";

// A row of `executions` as read: its JSON columns checked to be JSON of their kind, not parsed
// in depth (they are written here, and a run's tasks are read on every status poll).
type Json<K extends keyof ExecutionRow> = NonNullable<ExecutionRow[K]>;

// In the table's column order: a row read with `SELECT *` keeps its keys in the order it had.
export const executionColumns = {
  id: z.string(),
  crew: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  owner_user_id: z.string().nullable(),
  token_id: z.string().nullable(),
  inputs: jsonObject<Json<"inputs">>(),
  meta: jsonObject<Json<"meta">>().nullable(),
  webhooks: jsonObject<Json<"webhooks">>(),
  /** Null when the run names a stored definition (`crew_def`): withCrews fills it in. */
  crew_snapshot: jsonObject<CrewDef>().nullable(),
  tasks: jsonArray<Json<"tasks">[number]>(),
  current_task: z.string().nullable(),
  pending_human_input: jsonObject<Json<"pending_human_input">>().nullable(),
  last_step: jsonObject<Json<"last_step">>().nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  token_usage: jsonObject<Json<"token_usage">>(),
  last_seq: num,
  lease_owner: z.string().nullable(),
  lease_expires_at: time.nullable(),
  created_at: time,
  updated_at: time,
  started_at: time.nullable(),
  finished_at: time.nullable(),
  deployment_id: z.string().nullable(),
  remote_id: z.string().nullable(),
  remote: jsonObject<Json<"remote">>().nullable(),
  next_poll_at: time.nullable(),
  started_via: z
    .enum(["dashboard", "api", "deployment", "schedule", "trigger", "experiment"])
    .nullable(),
  started_by_name: z.string().nullable(),
  stopped_by: z.string().nullable(),
  stopped_at: time.nullable(),
  review_wait_seconds: num,
  open_reviews: jsonArray<Json<"open_reviews">[number]>(),
  review_due_at: time.nullable(),
  version: num,
  crew_def: z.string().nullable(),
  parent_id: z.string().nullable(),
  flow: jsonObject<Json<"flow">>().nullable(),
  origin_id: z.string().nullable(),
  origin_kind: z.enum(["rerun", "fork"]).nullable(),
  concurrency_key: z.string().nullable(),
  schedule_id: z.string().nullable(),
  trigger_id: z.string().nullable(),
};

/** `SELECT *` (or `RETURNING *`) from executions; columns not named here are kept as read. */
export const StoredExecutionRow = z.looseObject(executionColumns);
