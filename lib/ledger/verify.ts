import { entryHash, GENESIS_HASH, type LedgerEntry } from "./entry";

type ChainBreak = {
  position: number;
  /**
   * hash mismatch: the entry's fields no longer give its hash (it was edited);
   * broken link: its prev_hash is not the hash of the entry before it (edited and re-hashed,
   * reordered, or from another run); gap: positions skip (an entry was removed).
   */
  reason: "hash mismatch" | "broken link" | "gap";
};
export type ChainVerdict = {
  ok: boolean;
  entries: number;
  /** The last entry's hash: recording it elsewhere also catches entries cut off the end. */
  head_hash: string | null;
  first_bad?: ChainBreak;
};

/** Checks a run's entries, in the order given (as stored: by position), from the first. */
export function verifyChain(entries: readonly LedgerEntry[]): ChainVerdict {
  const verdict = (first_bad?: ChainBreak): ChainVerdict => ({
    ok: !first_bad,
    entries: entries.length,
    head_hash: entries.at(-1)?.hash ?? null,
    ...(first_bad ? { first_bad } : {}),
  });
  const positions = new Set(entries.map((e) => e.position));
  const run = entries[0]?.execution_id;
  let prev = GENESIS_HASH;
  for (const [i, e] of entries.entries()) {
    const expected = i + 1;
    if (e.position !== expected) {
      // A position that is nowhere in the list was removed; one that is elsewhere is out of order.
      const missing = e.position > expected && !positions.has(expected);
      return verdict({
        position: missing ? expected : e.position,
        reason: missing ? "gap" : "broken link",
      });
    }
    if (entryHash(e) !== e.hash) return verdict({ position: e.position, reason: "hash mismatch" });
    if (e.prev_hash !== prev || e.execution_id !== run)
      return verdict({ position: e.position, reason: "broken link" });
    prev = e.hash;
  }
  return verdict();
}
