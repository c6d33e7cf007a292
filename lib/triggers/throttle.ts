import { env } from "@/lib/config/env";
import type { TRIGGER_OUTCOMES } from "@/lib/contract/triggers";

export type TriggerOutcome = (typeof TRIGGER_OUTCOMES)[number];

// Per process, per trigger, per clock minute: a sender that floods one trigger gets 429s (and
// its deliveries say so in the log) without slowing the others. Unsigned deliveries are answered
// 401 always, but logged only up to UNSIGNED_LOGGED a minute: a stranger cannot fill the log.
const UNSIGNED_LOGGED = 20;
const MAX_TRACKED = 10_000;

type Window = { minute: number; taken: number; unsigned: number };
const windows = new Map<string, Window>();
// Per client address, deliveries whose signature failed this minute: past the per-trigger rate,
// the address's next delivery is refused before its body (up to 1 MiB) is read or its HMAC
// computed. Counted per address, not per trigger, so a stranger cannot hold back the sender.
const failedFrom = new Map<string, Window>();

function windowOf(id: string, now: Date, table = windows): Window {
  const minute = Math.floor(now.getTime() / 60_000);
  let w = table.get(id);
  if (!w || w.minute !== minute) {
    if (table.size >= MAX_TRACKED) table.clear(); // old minutes, from callers gone quiet
    w = { minute, taken: 0, unsigned: 0 };
    table.set(id, w);
  }
  return w;
}

export const triggerLimits = {
  get perMinute() {
    return env().TRIGGER_RATE_PER_MINUTE;
  },
  /** Takes a delivery from this minute's allowance: null, or the seconds until the next minute. */
  take(id: string, now: Date): number | null {
    const w = windowOf(id, now);
    if (w.taken >= this.perMinute) return 60 - (Math.floor(now.getTime() / 1000) % 60);
    w.taken++;
    return null;
  },
  /** Null, or the seconds until this address's failed signatures no longer hold it back. */
  unsignedWait(address: string, now: Date): number | null {
    const w = windowOf(address, now, failedFrom);
    if (w.unsigned < this.perMinute) return null;
    return 60 - (Math.floor(now.getTime() / 1000) % 60);
  },
  /** Counts a delivery from this address whose signature failed (or named no trigger). */
  failedSignature(address: string, now: Date): void {
    windowOf(address, now, failedFrom).unsigned++;
  },
  /** Whether this unsigned delivery is still logged. */
  logUnsigned(id: string, now: Date): boolean {
    const w = windowOf(id, now);
    w.unsigned++;
    return w.unsigned <= UNSIGNED_LOGGED;
  },
};
