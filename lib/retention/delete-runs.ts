import { CountRow, IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { EXECUTION_CHANNEL } from "@/lib/runs/execution-cache";
import type { RunRule } from "./policy";

export type Deleted = { runs: string[]; ledgers: number };

/**
 * Deletes up to `limit` finished runs that `rule` covers, oldest first, in one transaction: their
 * events, webhook deliveries (with attempts) and artifacts go by cascade. Rows another sweeper
 * holds are skipped (SKIP LOCKED), so several workers share the work without waiting on each
 * other. A run with a delivery still pending or being sent is left until it ends. The ledgers of
 * the deleted runs go too when wholly older than `ledgerBefore`; otherwise they stay (retention
 * of the audit ledger is its own, see deleteOldLedgers).
 */
export async function deleteRunBatch(
  db: Db,
  { rule, ledgerBefore, limit }: { rule: RunRule; ledgerBefore: Date | undefined; limit: number },
): Promise<Deleted> {
  const crewCondition = "crew" in rule ? "e.crew = $2::text" : "NOT (e.crew = ANY($2::text[]))";
  return db.tx(async (q) => {
    const { rows } = await q.query(
      `WITH doomed AS (
         SELECT e.id FROM executions e
          WHERE e.status IN ('completed', 'error', 'cancelled')
            AND COALESCE(e.finished_at, e.updated_at) < $1
            AND ${crewCondition}
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                             WHERE d.execution_id = e.id AND d.status IN ('pending', 'delivering'))
          ORDER BY COALESCE(e.finished_at, e.updated_at)
          LIMIT $3
          FOR UPDATE OF e SKIP LOCKED)
       DELETE FROM executions x USING doomed WHERE x.id = doomed.id RETURNING x.id`,
      [rule.cutoff, "crew" in rule ? rule.crew : rule.exceptCrews, limit],
      IdRow,
    );
    const runs = rows.map((r) => r.id);
    if (!runs.length) return { runs, ledgers: 0 };
    // Processes caching these runs' rows for /status drop them (as on any change of a run).
    await q.query("SELECT pg_notify($1, id::text) FROM unnest($2::uuid[]) AS id", [
      EXECUTION_CHANNEL,
      runs,
    ]);
    const ledgers = ledgerBefore
      ? await q.query(
          `WITH gone AS (
             DELETE FROM review_ledger
              WHERE execution_id = ANY($1::uuid[])
                AND execution_id NOT IN (SELECT execution_id FROM review_ledger
                                          WHERE execution_id = ANY($1::uuid[]) AND at >= $2)
              RETURNING execution_id)
           SELECT count(DISTINCT execution_id)::int AS n FROM gone`,
          [runs, ledgerBefore],
          CountRow,
        )
      : undefined;
    return { runs, ledgers: ledgers?.rows[0]?.n ?? 0 };
  });
}

/**
 * Deletes up to `limit` whole ledgers whose run is gone and whose every entry is older than
 * `before`. A ledger goes whole or not at all, so what remains still verifies from its first
 * entry; a run that still exists keeps its ledger.
 */
export async function deleteOldLedgers(
  db: Db,
  { before, limit }: { before: Date; limit: number },
): Promise<number> {
  const { rows } = await db.query(
    `WITH old AS (
       SELECT l.execution_id FROM review_ledger l
        WHERE l.position = 1 AND l.at < $1
          AND NOT EXISTS (SELECT 1 FROM executions e WHERE e.id = l.execution_id)
          AND NOT EXISTS (SELECT 1 FROM review_ledger n
                           WHERE n.execution_id = l.execution_id AND n.at >= $1)
        LIMIT $2),
     gone AS (
       DELETE FROM review_ledger WHERE execution_id IN (SELECT execution_id FROM old)
       RETURNING execution_id)
     SELECT count(DISTINCT execution_id)::int AS n FROM gone`,
    [before, limit],
    CountRow,
  );
  return rows[0]?.n ?? 0;
}
