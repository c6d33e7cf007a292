import { principalName } from "@/lib/auth/principal";
import { IdRow } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { openReviewsOf, reviewColumns, waitingFor } from "@/lib/run-model/open-reviews";
import { TERMINAL } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";
import { invalidateExecution } from "./execution-cache";
import { type Change, mutateExecution } from "./execution-store";
import { type ExecutionAsked, getExecutionOrThrow } from "./get-execution";

/** Cancels a queued, running or paused execution. The worker running it notices and lets go. */
export async function stopExecution(asked: ExecutionAsked) {
  await getExecutionOrThrow(asked);
  const { db, id, principal } = asked;
  const by = principalName(principal);
  const nested = await db.tx(async (q) => {
    // The worker running it (in whatever process) aborts at once instead of at its next write.
    await q.query("SELECT pg_notify('crewdeck_stop', $1)", [id]);
    await mutateExecution(q, { id }, (row) => {
      if (TERMINAL.has(row.status)) {
        throw errors.conflict(
          `Execution ${id} has already finished (${row.status}); there is nothing to stop.`,
          {
            execution_status: row.status,
          },
        );
      }
      return stopped(row, { by, reason: "Stopped on request." });
    });
    return stopNestedIn(q, id, by);
  });
  // The caller's next /status on this process must see the stop, not wait for the NOTIFY.
  for (const stoppedId of [id, ...nested]) invalidateExecution(stoppedId);
}

/**
 * A flow's nested runs still going stop with it (and theirs with them), in the transaction that
 * stopped it: a process ending after its commit leaves none running. The flow is locked and
 * stopped first, so none can start meanwhile (lib/flows/nested-runs.ts). The ids stopped.
 */
async function stopNestedIn(q: Queryable, flowId: string, by: string): Promise<string[]> {
  const { rows } = await q.query(
    "SELECT id FROM executions WHERE parent_id = $1 AND status IN ('queued', 'running', 'pending_human_input')",
    [flowId],
    IdRow,
  );
  const ids: string[] = [];
  for (const { id } of rows)
    ids.push(...(await stopWithNestedIn(q, id, by, "Stopped with its flow.")));
  return ids;
}

/** Stops a run for the system (its flow, an experiment's budget), unless it has finished. */
export async function stopRun(db: Db, id: string, by: string, reason: string) {
  const ids = await db.tx((q) => stopWithNestedIn(q, id, by, reason));
  for (const stoppedId of ids) invalidateExecution(stoppedId);
}

/**
 * Stops a run unless it has finished, and its nested runs, in the caller's transaction; each one's
 * worker (in whatever process) aborts at once. The ids, its own first.
 */
export async function stopWithNestedIn(
  q: Queryable,
  id: string,
  by: string,
  reason: string,
): Promise<string[]> {
  await q.query("SELECT pg_notify('crewdeck_stop', $1)", [id]);
  await mutateExecution(q, { id }, (row) =>
    TERMINAL.has(row.status) ? {} : stopped(row, { by, reason }),
  );
  return [id, ...(await stopNestedIn(q, id, by))];
}

/** The change that stops a run now: its running and waiting tasks end, its reviews close. */
export function stopped(
  row: ExecutionRow,
  { by, reason, now = new Date() }: { by: string; reason: string; now?: Date },
): Change {
  const open = openReviewsOf(row);
  return {
    patch: {
      status: "cancelled",
      lease_owner: null,
      lease_expires_at: null,
      finished_at: now,
      current_task: null,
      ...reviewColumns([], row.tasks),
      error: reason,
      stopped_by: by,
      stopped_at: now,
      review_wait_seconds: row.review_wait_seconds + (open[0] ? waitingFor(open[0], now) : 0),
      tasks: row.tasks.map((t) =>
        t.status === "running" || t.status === "pending_human_input"
          ? { ...t, status: "error" as const, error: reason, finished_at: now.toISOString() }
          : t,
      ),
    },
    events: [
      {
        type: "execution_cancelled",
        data: { reason, previous_status: row.status, stopped_by: by },
      },
    ],
  };
}
