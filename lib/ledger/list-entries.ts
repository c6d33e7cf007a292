import type { Queryable } from "@/lib/db/types";
import type { LedgerEntry } from "./entry";

type StoredEntry = Omit<LedgerEntry, "at"> & { at: Date | string };

/** A run's ledger, by position: what the API exports and what verification reads. */
export async function listLedger({ q, id }: { q: Queryable; id: string }): Promise<LedgerEntry[]> {
  const { rows } = await q.query<StoredEntry>(
    `SELECT execution_id, position, event_seq, at, actor, action, task_id, attempt, output_sha256,
            decision, effect, prev_hash, hash
       FROM review_ledger WHERE execution_id = $1 ORDER BY position`,
    [id],
  );
  // timestamptz comes back as a Date (pg, PGlite): the ISO string it was written from.
  return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}

/** Every run that has a ledger, for `npm run audit:verify -- --all`. */
export async function ledgerRuns({ q }: { q: Queryable }): Promise<string[]> {
  const { rows } = await q.query<{ execution_id: string }>(
    "SELECT DISTINCT execution_id FROM review_ledger ORDER BY execution_id",
  );
  return rows.map((r) => r.execution_id);
}
