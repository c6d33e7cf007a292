import { z } from "zod";
import { canSeeExecution, type Principal } from "@/lib/auth/principal";
import { jsonArray } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { cachedExecution } from "./execution-cache";
import { executionColumns } from "./execution-row";

const c = executionColumns;
const SummaryRow = z.object({
  id: c.id,
  crew: c.crew,
  status: c.status,
  owner_user_id: c.owner_user_id,
  tasks: c.tasks,
  current_task: c.current_task,
  pending_human_input: c.pending_human_input,
  open_reviews: c.open_reviews,
  last_step: c.last_step,
  result: c.result,
  error: c.error,
  created_at: c.created_at,
  updated_at: c.updated_at,
  started_at: c.started_at,
  finished_at: c.finished_at,
  inputs: c.inputs,
  meta: c.meta,
  token_usage: c.token_usage,
  started_via: c.started_via,
  started_by_name: c.started_by_name,
  stopped_by: c.stopped_by,
  stopped_at: c.stopped_at,
  review_wait_seconds: c.review_wait_seconds,
  deployment_id: c.deployment_id,
  parent_id: c.parent_id,
  flow: c.flow,
  origin_id: c.origin_id,
  origin_kind: c.origin_kind,
  concurrency_key: c.concurrency_key,
  schedule_id: c.schedule_id,
  trigger_id: c.trigger_id,
  /** A flow's: the reviews open in its nested runs (decided on the flow by their task_id). */
  nested_reviews: c.open_reviews,
  input_order: jsonArray<string>().nullable(),
});
export type ExecutionSummary = z.infer<typeof SummaryRow>;

// Everything /status shows, from primary-key lookups (the run; its crew definition, for the
// order of its inputs), served from the execution cache while nothing changed.
const SUMMARY_COLUMNS =
  "id, crew, status, owner_user_id, tasks, current_task, pending_human_input, open_reviews, last_step, result, error, created_at, updated_at, started_at, finished_at, " +
  "inputs, meta, token_usage, started_via, started_by_name, stopped_by, stopped_at, review_wait_seconds, deployment_id, parent_id, flow, origin_id, origin_kind, concurrency_key, schedule_id, trigger_id, " +
  "CASE WHEN flow IS NULL THEN '[]'::jsonb ELSE (SELECT COALESCE(jsonb_agg(r), '[]'::jsonb) FROM executions n, jsonb_array_elements(n.open_reviews) r " +
  "WHERE n.parent_id = executions.id AND n.status = 'pending_human_input') END AS nested_reviews, " +
  "COALESCE(crew_snapshot, (SELECT definition FROM crew_definitions WHERE key = crew_def))->'inputs' AS input_order";

/** One execution of a crew, as `principal` asks for it. */
export type ExecutionAsked = { db: Db; crew: string; id: string; principal: Principal };

const UUID = z.uuid(); // made once: building a zod schema costs more than checking with it

/**
 * The execution if `principal` may see it on this crew. Unknown ids, non-UUIDs, other crews'
 * executions and other users' executions are all the same 404: nothing to tell them apart.
 */
export async function getExecutionOrThrow({
  db,
  crew,
  id,
  principal,
}: ExecutionAsked): Promise<ExecutionSummary> {
  const notFound = () => errors.notFound(`No execution '${id}' on crew '${crew}'.`);
  if (!UUID.safeParse(id).success) throw notFound();
  // One spelling per execution: changes invalidate the cache by the lower-case id.
  const key = id.toLowerCase();
  const row = await cachedExecution(db, key, async () => {
    const { rows } = await db.query(
      `SELECT ${SUMMARY_COLUMNS} FROM executions WHERE id = $1`,
      [key],
      SummaryRow,
    );
    return rows[0];
  });
  if (!row || row.crew !== crew || !canSeeExecution(principal, row.owner_user_id)) throw notFound();
  return row;
}
