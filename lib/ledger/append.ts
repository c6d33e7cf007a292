import { z } from "zod";
import { num } from "@/lib/db/columns";
import { storableValue } from "@/lib/db/storable-text";
import type { Queryable } from "@/lib/db/types";
import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";
import { describeEvent, LEDGER_EVENT_TYPES } from "./describe-event";
import { chainedEntry, GENESIS_HASH, type LedgerEntry } from "./entry";
import { ledgerEventsSchema } from "./first-entries";

/**
 * Appends a ledger entry for each review event among `applied`, chained to the run's last one.
 * Called by mutateExecution in the transaction that wrote the events, with the execution's row
 * locked (FOR UPDATE): no other change of this run can read the same head and append beside it.
 */
export async function appendLedger(q: Queryable, row: ExecutionRow, applied: AppliedEvent[]) {
  const reviews = applied.filter((e) => LEDGER_EVENT_TYPES.has(e.type));
  if (!reviews.length) return;
  const { rows } = await q.query(
    "SELECT position, hash FROM review_ledger WHERE execution_id = $1 ORDER BY position DESC LIMIT 1",
    [row.id],
    z.object({ position: num, hash: z.string() }),
  );
  let position = rows[0]?.position ?? 0;
  let prev = rows[0]?.hash ?? GENESIS_HASH;
  const entries: LedgerEntry[] = [];
  // As the events are stored (NUL as ␀…: lib/db/storable-text.ts), so that the hashes of their
  // texts, and of the entry, are those of what is read back and verified.
  for (const e of storableValue(reviews, ledgerEventsSchema)) {
    const facts = describeEvent(e);
    const entry = chainedEntry(e, facts, {
      execution_id: row.id,
      position: ++position,
      prev_hash: prev,
      output_sha256:
        facts.output_sha256 ?? (await requestedOutputHash(q, row.id, e.task_id, e.attempt)),
    });
    entries.push(entry);
    prev = entry.hash;
  }
  const params: unknown[] = [];
  const values = entries.map((e) => {
    params.push(
      e.execution_id,
      e.position,
      e.event_seq,
      e.at,
      e.actor,
      e.action,
      e.task_id,
      e.attempt,
      e.output_sha256,
      JSON.stringify(e.decision),
      e.effect,
      e.prev_hash,
      e.hash,
    );
    const n = params.length - 13;
    const p = (i: number) => `$${n + i}`;
    return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}, ${p(10)}::jsonb, ${p(11)}, ${p(12)}, ${p(13)})`;
  });
  await q.query(
    `INSERT INTO review_ledger (execution_id, position, event_seq, at, actor, action, task_id,
       attempt, output_sha256, decision, effect, prev_hash, hash) VALUES ${values.join(", ")}`,
    params,
  );
}

/**
 * What the reviewer saw, for events that do not say (a decision of a run from before
 * output_sha256): the output of the review request of that task and attempt. Already in the
 * event log, even when requested by this same change (its events are written first).
 */
async function requestedOutputHash(
  q: Queryable,
  id: string,
  taskId: string | null,
  attempt: number | null,
): Promise<string | null> {
  if (taskId === null || attempt === null) return null;
  const { rows } = await q.query(
    `SELECT COALESCE(data->>'output_sha256',
              encode(sha256(convert_to(data->>'output', 'UTF8')), 'hex')) AS sha
       FROM execution_events
      WHERE execution_id = $1 AND type = 'review_requested' AND task_id = $2 AND attempt = $3
      ORDER BY seq DESC LIMIT 1`,
    [id, taskId, attempt],
    z.object({ sha: z.string().nullable() }),
  );
  return rows[0]?.sha ?? null;
}
