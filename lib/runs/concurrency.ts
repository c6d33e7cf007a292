import type { Concurrency } from "@/lib/contract/crew";
import { IdRow } from "@/lib/db/columns";
import { type Notification, notifyCommitted } from "@/lib/db/group-commit";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { TERMINAL } from "@/lib/run-model/states";
import { invalidateExecution } from "./execution-cache";
import { mutateExecution } from "./execution-store";
import { stopNestedRuns, stopped } from "./stop-execution";

// A concurrency key names what a run works on (an issue, a customer), within its crew. While a
// run with the key is active (queued, running or awaiting review), a second kickoff with it is
// refused (reject), waits its turn (enqueue: the workers claim it once the runs before it with
// the key have ended, lib/engine/worker.ts), or stops them and goes ahead (stop).

/**
 * Runs `write` (which creates run `id`) in one transaction with the key's policy applied: two
 * kickoffs with one key at once take its lock in turn, so they cannot both see it free. Resolves
 * with the runs it stopped (their flows' nested runs still to stop: afterStops).
 */
export async function withConcurrency(
  db: Db,
  crew: string,
  concurrency: Concurrency,
  by: string,
  id: string,
  write: (q: Queryable) => Promise<Notification[]>,
): Promise<string[]> {
  const { ended, notify } = await db.tx(async (q) => {
    const ended = await applyConcurrency(q, crew, concurrency, by, id);
    return { ended, notify: await write(q) };
  });
  notifyCommitted(db, notify);
  return ended;
}

/** Locks the key for the rest of the transaction and applies its policy; the runs it stopped. */
export async function applyConcurrency(
  q: Queryable,
  crew: string,
  { key, policy }: Concurrency,
  by: string,
  id: string,
): Promise<string[]> {
  // Enqueued runs wait at the workers' claim: nothing to check here.
  if (policy === "enqueue") return [];
  await q.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    JSON.stringify(["concurrency", crew, key]),
  ]);
  const { rows } = await q.query(
    `SELECT id FROM executions WHERE crew = $1 AND concurrency_key = $2
        AND status IN ('queued', 'running', 'pending_human_input') ORDER BY created_at`,
    [crew, key],
    IdRow,
  );
  const first = rows[0];
  if (!first) return [];
  if (policy === "reject")
    throw errors.conflict(
      `Run ${first.id} with concurrency key '${key}' is still active, and this kickoff's policy is "reject": wait for it to end, or kick off with the policy "enqueue" (run after it) or "stop" (stop it).`,
      { execution_id: first.id, concurrency_key: key },
    );
  const reason = `Stopped for run ${id}, started with the same concurrency key ('${key}').`;
  for (const { id: running } of rows) {
    // The worker running it (in whatever process) aborts at once.
    await q.query("SELECT pg_notify('crewdeck_stop', $1)", [running]);
    await mutateExecution(q, { id: running }, (row) =>
      TERMINAL.has(row.status) ? {} : stopped(row, { by, reason }),
    );
  }
  return rows.map((r) => r.id);
}

/** After the stops have committed: this process's cached copies go, and their nested runs stop. */
export async function afterStops(db: Db, ids: string[], by: string) {
  for (const id of ids) {
    invalidateExecution(id);
    await stopNestedRuns(db, id, by);
  }
}
