import type { Db } from "@/lib/db/types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { withCrews } from "@/lib/runs/crew-definitions";
import { StoredExecutionRow } from "@/lib/runs/execution-row";

/**
 * Leases up to `limit` claimable runs, oldest first, to worker `workerId` for `leaseMs`, with
 * their rows (the writer starts from them). SKIP LOCKED hands each run to exactly one worker.
 * Never one in `running` (the worker's own, already going: see startWorker).
 */
export async function claimRuns(
  db: Db,
  {
    workerId,
    leaseMs,
    running,
    limit,
  }: { workerId: string; leaseMs: number; running: string[]; limit: number },
): Promise<ExecutionRow[]> {
  const { rows } = await db.query(
    `UPDATE executions SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2)
      WHERE id IN (SELECT id FROM executions
                    WHERE status IN ('queued', 'running') AND deployment_id IS NULL
                      AND (lease_expires_at IS NULL OR lease_expires_at < now())
                      AND NOT id = ANY($3::uuid[])
                      -- A flow waits while a run one of its methods started is active.
                      AND NOT EXISTS (SELECT 1 FROM executions c WHERE c.parent_id = executions.id
                                        AND c.status IN ('queued', 'running', 'pending_human_input'))
                      -- A run with a concurrency key waits for the earlier active runs with it:
                      -- of the crew, or only its owner's when a person's token started it.
                      AND (concurrency_key IS NULL OR status <> 'queued' OR NOT EXISTS (
                            SELECT 1 FROM executions k
                             WHERE k.crew = executions.crew AND k.concurrency_key = executions.concurrency_key
                               AND (executions.concurrency_owner IS NULL
                                    OR k.owner_user_id = executions.concurrency_owner)
                               AND k.status IN ('queued', 'running', 'pending_human_input')
                               AND (k.created_at, k.id) < (executions.created_at, executions.id)))
                    ORDER BY created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING *`,
    [workerId, leaseMs / 1000, running, limit],
    StoredExecutionRow,
  );
  return withCrews(db, rows);
}
