import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json";

/** One entry of a run's decision ledger, as stored and as exported. */
export type LedgerEntry = {
  execution_id: string;
  /** 1..n within the run, no gaps. */
  position: number;
  /** The execution event this entry records. */
  event_seq: number;
  /** When the event was written (ISO 8601, milliseconds). */
  at: string;
  /** Who acted: a reviewer's e-mail or token name, or "system". */
  actor: string;
  /** The event's type (review_requested, review_submitted, …). */
  action: string;
  task_id: string | null;
  attempt: number | null;
  /** Hex SHA-256 of the output the reviewer saw (UTF-8). */
  output_sha256: string | null;
  /** What was decided or asked, without the output itself (its hash stands for it). */
  decision: Record<string, unknown>;
  /** What it did: awaiting_review, approved, sent_back, approval_recorded, claimed, … */
  effect: string;
  prev_hash: string;
  hash: string;
};

/** The previous hash of a run's first entry. */
export const GENESIS_HASH = "0".repeat(64);

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The entry's hash: SHA-256 over the canonical JSON of every field but the hash itself. */
export function entryHash(e: Omit<LedgerEntry, "hash">): string {
  return sha256Hex(
    canonicalJson({
      execution_id: e.execution_id,
      position: e.position,
      event_seq: e.event_seq,
      at: e.at,
      actor: e.actor,
      action: e.action,
      task_id: e.task_id,
      attempt: e.attempt,
      output_sha256: e.output_sha256,
      decision: e.decision,
      effect: e.effect,
      prev_hash: e.prev_hash,
    }),
  );
}

/** What a ledger entry is made from: an execution event as stored. */
export type LedgerEvent = {
  seq: number;
  type: string;
  task_id: string | null;
  attempt: number | null;
  created_at: string | Date;
};

/**
 * The entry recording `e` at `position`, chained to `prev_hash`, from the facts its data gives
 * (describeEvent) and the hash of the output the actor saw.
 */
export function chainedEntry(
  e: LedgerEvent,
  facts: { actor: string; decision: Record<string, unknown>; effect: string },
  at: { execution_id: string; position: number; prev_hash: string; output_sha256: string | null },
): LedgerEntry {
  const base = {
    execution_id: at.execution_id,
    position: at.position,
    event_seq: e.seq,
    // Milliseconds, as the event was written: what the database gives back, so a stored entry
    // hashes the same when read again.
    at: new Date(e.created_at).toISOString(),
    actor: facts.actor,
    action: e.type,
    task_id: e.task_id,
    attempt: e.attempt,
    output_sha256: at.output_sha256,
    decision: facts.decision,
    effect: facts.effect,
    prev_hash: at.prev_hash,
  };
  return { ...base, hash: entryHash(base) };
}
