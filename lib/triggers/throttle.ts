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

function windowOf(id: string, now: Date): Window {
  const minute = Math.floor(now.getTime() / 60_000);
  let w = windows.get(id);
  if (!w || w.minute !== minute) {
    if (windows.size >= MAX_TRACKED) windows.clear(); // old minutes, from triggers gone quiet
    w = { minute, taken: 0, unsigned: 0 };
    windows.set(id, w);
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
  /** Whether this unsigned delivery is still logged. */
  logUnsigned(id: string, now: Date): boolean {
    const w = windowOf(id, now);
    w.unsigned++;
    return w.unsigned <= UNSIGNED_LOGGED;
  },
};
