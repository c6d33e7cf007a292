import type { Concurrency } from "@/lib/contract/crew";
import { IdRow } from "@/lib/db/columns";
import { type Notification, notifyCommitted } from "@/lib/db/group-commit";
import type { Db, Queryable } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { invalidateExecution } from "./execution-cache";
import { stopWithNestedIn } from "./stop-execution";

// A concurrency key names what a run works on (an issue, a customer), within its crew. While a
// run with the key is active (queued, running or awaiting review), a second kickoff with it is
// refused (reject), waits its turn (enqueue: the workers claim it once the runs before it with
// the key have ended, lib/engine/claim.ts), or stops them and goes ahead (stop).
//
// A person's token acts only on its owner's runs (it cannot see or stop anyone else's), so its
// key reaches only them: `owner`, recorded on the run as concurrency_owner for the workers'
// claim. Principals that see every run (the organization token, people signed in, and the
// schedules and triggers they made) reach every run of the crew with the key: owner null.

/** The kickoff a key's policy is applied for: its new run, who it acts as, whose runs it reaches. */
type KeyedKickoff = { id: string; by: string; owner: string | null };

/**
 * Runs `write` (which creates the kickoff's run) in one transaction with the key's policy
 * applied: two kickoffs with one key at once take its lock in turn, so they cannot both see it
 * free. Resolves with the runs it stopped, nested ones included (all stopped in it).
 */
export async function withConcurrency(
  db: Db,
  crew: string,
  concurrency: Concurrency,
  kickoff: KeyedKickoff,
  write: (q: Queryable) => Promise<Notification[]>,
): Promise<string[]> {
  const { ended, notify } = await db.tx(async (q) => {
    const ended = await applyConcurrency(q, crew, concurrency, kickoff);
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
  { id, by, owner }: KeyedKickoff,
): Promise<string[]> {
  // Enqueued runs wait at the workers' claim: nothing to check here.
  if (policy === "enqueue") return [];
  // One lock per key of the crew, whoever's runs the kickoff reaches: a crew-wide kickoff and a
  // person's at once must not both see the key free either.
  await q.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
    JSON.stringify(["concurrency", crew, key]),
  ]);
  const { rows } = await q.query(
    `SELECT id FROM executions WHERE crew = $1 AND concurrency_key = $2
        AND status IN ('queued', 'running', 'pending_human_input')
        AND ($3::uuid IS NULL OR owner_user_id = $3::uuid) ORDER BY created_at`,
    [crew, key, owner],
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
  // Each with its nested runs, in this transaction: nothing is left to stop after the commit.
  const ended: string[] = [];
  for (const { id: running } of rows)
    ended.push(...(await stopWithNestedIn(q, running, by, reason)));
  return ended;
}

/** After the stops have committed: this process's cached copies of the runs go at once. */
export function afterStops(ids: string[]) {
  for (const id of ids) invalidateExecution(id);
}
