import type { Queryable } from "@/lib/db/types";
import type { LedgerEntry } from "./entry";

/** A run's ledger, by position: what the API exports and what verification reads. */
export async function listLedger({ q, id }: { q: Queryable; id: string }): Promise<LedgerEntry[]> {
  const { rows } = await q.query<LedgerEntry>(
    // `at` as the ISO string it was hashed as (written from one, in milliseconds), rendered by the
    // database so no driver's date parsing or time zone is involved.
    `SELECT execution_id, position, event_seq,
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
            actor, action, task_id, attempt, output_sha256, decision, effect, prev_hash, hash
       FROM review_ledger WHERE execution_id = $1 ORDER BY position`,
    [id],
  );
  return rows;
}

/** Every run that has a ledger, for `npm run audit:verify -- --all`. */
export async function ledgerRuns({ q }: { q: Queryable }): Promise<string[]> {
  const { rows } = await q.query<{ execution_id: string }>(
    "SELECT DISTINCT execution_id FROM review_ledger ORDER BY execution_id",
  );
  return rows.map((r) => r.execution_id);
}
