import { z } from "zod";
import { storableValue } from "@/lib/db/storable-text";
import { describeEvent, LEDGER_EVENT_TYPES } from "./describe-event";
import { chainedEntry, GENESIS_HASH, type LedgerEntry } from "./entry";

/** An event a new run is created with, as it will be stored (its seq and time decided here). */
export const ledgerEventsSchema = z.array(
  z.object({
    seq: z.number(),
    type: z.string(),
    task_id: z.string().nullable(),
    attempt: z.number().nullable(),
    data: z.record(z.string(), z.unknown()),
    created_at: z.string(),
  }),
);
export type FirstEvent = z.infer<typeof ledgerEventsSchema>[number];

/**
 * The ledger entries of a run's first events (a fork's inherited and edited tasks), chained from
 * the genesis hash: computed before the run exists, so they are written in the statement that
 * creates it (lib/runs/create-execution.ts), as appendLedger would have written them.
 */
export function firstEntries(executionId: string, events: FirstEvent[]): LedgerEntry[] {
  let prev = GENESIS_HASH;
  const entries: LedgerEntry[] = [];
  for (const e of storableValue(
    events.filter((x) => LEDGER_EVENT_TYPES.has(x.type)),
    ledgerEventsSchema,
  )) {
    const facts = describeEvent(e);
    const entry = chainedEntry(e, facts, {
      execution_id: executionId,
      position: entries.length + 1,
      prev_hash: prev,
      output_sha256: facts.output_sha256,
    });
    entries.push(entry);
    prev = entry.hash;
  }
  return entries;
}
