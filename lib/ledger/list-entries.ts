import { z } from "zod";
import { jsonObject, num } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";
import type { LedgerEntry } from "./entry";

// In the order the entry is exported; `decision` read as stored, since the entry's hash covers it.
const EntryRow = z.object({
  execution_id: z.string(),
  position: num,
  event_seq: num,
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  task_id: z.string().nullable(),
  attempt: num.nullable(),
  output_sha256: z.string().nullable(),
  decision: jsonObject<LedgerEntry["decision"]>(),
  effect: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});

/** A run's ledger, by position: what the API exports and what verification reads. */
export async function listLedger({ q, id }: { q: Queryable; id: string }): Promise<LedgerEntry[]> {
  const { rows } = await q.query(
    // `at` as the ISO string it was hashed as (written from one, in milliseconds), rendered by the
    // database so no driver's date parsing or time zone is involved.
    `SELECT execution_id, position, event_seq,
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
            actor, action, task_id, attempt, output_sha256, decision, effect, prev_hash, hash
       FROM review_ledger WHERE execution_id = $1 ORDER BY position`,
    [id],
    EntryRow,
  );
  return rows;
}

/** Every run that has a ledger, for `npm run audit:verify -- --all`. */
export async function ledgerRuns({ q }: { q: Queryable }): Promise<string[]> {
  const { rows } = await q.query(
    "SELECT DISTINCT execution_id FROM review_ledger ORDER BY execution_id",
    [],
    z.object({ execution_id: z.string() }),
  );
  return rows.map((r) => r.execution_id);
}
