import crypto from "node:crypto";
import { z } from "zod";
import type { CrewDef } from "@/lib/crew/schema";
import { jsonArray, jsonObject, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { EXECUTION_STATUSES } from "@/lib/run-model/states";
import type { TaskState, TokenUsage } from "@/lib/run-model/types";
import { crewJson } from "@/lib/runs/create-execution";
import { storeDefinition } from "@/lib/runs/crew-definitions";
import type { InputValue } from "@/lib/util/placeholders";

// The crew or agent a flow's method calls runs as a run of its own (parent_id: the flow's), with
// its own trace, reviews and human input; the worker picks it up like any other run, and the
// flow waits for it (lib/engine/worker.ts skips a flow while a nested run is active).

/**
 * The nested run's id, made from the flow's and where in the flow it is called: starting it again
 * after a crash finds the run already there instead of starting a second one.
 */
export function nestedRunId(flowId: string, key: string): string {
  const h = crypto.createHash("sha256").update(`${flowId}/${key}`).digest("hex");
  // Shaped as a UUID (version 8: custom), so it fits the id column and every route.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Queues the nested run `id` unless it exists; its owner and origin are the flow's. Not once the
 * flow has ended: a stop locks the flow, then stops its nested runs in one transaction, and the
 * flow's row is read here under a share lock, so one started meanwhile waits and sees the stop.
 */
export async function startNestedRun(
  db: Db,
  {
    id,
    flowId,
    crew,
    inputs,
    method,
  }: {
    id: string;
    flowId: string;
    crew: CrewDef;
    inputs: Record<string, InputValue>;
    method: string;
  },
): Promise<void> {
  const { definition, key, tasks, totalTasks } = crewJson(crew);
  await storeDefinition(db, key, definition);
  await db.query(
    `WITH child AS (
       INSERT INTO executions (id, crew, status, owner_user_id, token_id, inputs, meta, webhooks,
                               crew_def, tasks, last_seq, started_via, started_by_name, parent_id)
       SELECT $1::uuid, p.crew, 'queued', p.owner_user_id, p.token_id, $2::jsonb, $3::jsonb, '{}'::jsonb,
              $4, $5::jsonb, 1, p.started_via, p.started_by_name, p.id
         FROM executions p
        WHERE p.id = $6::uuid AND p.status IN ('queued', 'running', 'pending_human_input')
          FOR SHARE OF p
       ON CONFLICT (id) DO NOTHING RETURNING id),
     queued AS (
       INSERT INTO execution_events (execution_id, seq, type, data)
       SELECT id, 1, 'execution_queued', $7::jsonb FROM child RETURNING execution_id)
     SELECT pg_notify('crewdeck_work', id::text) FROM child`,
    [
      id,
      JSON.stringify(inputs),
      JSON.stringify({ flow_execution_id: flowId, flow_method: method }),
      key,
      tasks,
      flowId,
      JSON.stringify({
        crew: crew.slug,
        inputs,
        total_tasks: totalTasks,
        flow_execution_id: flowId,
      }),
    ],
  );
}

const NestedRow = z.object({
  id: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  result: z.string().nullable(),
  error: z.string().nullable(),
  tasks: jsonArray<TaskState>(),
  token_usage: jsonObject<TokenUsage>(),
});
export type NestedRun = z.infer<typeof NestedRow>;

export async function readNestedRun(db: Db, id: string): Promise<NestedRun | undefined> {
  const { rows } = await db.query(
    "SELECT id, status, result, error, tasks, token_usage FROM executions WHERE id = $1",
    [id],
    NestedRow,
  );
  return rows[0];
}

const UsageRow = z.object({ input_tokens: num, output_tokens: num, total_tokens: num });

/**
 * What the flow's nested runs spent, summed from their own rows: each counted once, however many
 * workers took the flow over, and none left out (a flow only goes on once they have ended).
 */
export async function nestedUsage(db: Db, flowId: string): Promise<TokenUsage> {
  const { rows } = await db.query(
    `SELECT COALESCE(sum((token_usage->>'input_tokens')::bigint), 0)::float8 AS input_tokens,
            COALESCE(sum((token_usage->>'output_tokens')::bigint), 0)::float8 AS output_tokens,
            COALESCE(sum((token_usage->>'total_tokens')::bigint), 0)::float8 AS total_tokens
       FROM executions WHERE parent_id = $1`,
    [flowId],
    UsageRow,
  );
  return rows[0] ?? { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
}
