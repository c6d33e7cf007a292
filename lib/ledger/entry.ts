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
