import type { AttemptResult } from "./deliver";

// The retry schedule: the delay before each attempt, the first being the immediate one.
// Default (Standard Webhooks' usual): immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
const UNIT_MS: Record<string, number> = { "": 1, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export function parseSchedule(spec: string): number[] {
  const delays = spec.split(",").map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(part);
    if (!m?.[1])
      throw new Error(
        `WEBHOOK_RETRY_SCHEDULE: '${part}' is not a duration such as 500, 5s, 5m or 2h`,
      );
    return Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? ""] ?? 1));
  });
  if (!delays.length) throw new Error("WEBHOOK_RETRY_SCHEDULE needs at least one attempt");
  return delays;
}

/**
 * When to try again after `attempts` attempts, or null when the schedule is used up. Jitter of
 * ±10 % keeps many failed deliveries from retrying in lockstep; a receiver's Retry-After (on
 * 429/503) is honoured when it asks for longer.
 */
export function nextDelayMs(
  schedule: number[],
  attempts: number,
  retryAfterMs: number | null,
  random = Math.random,
): number | null {
  const base = schedule[attempts];
  if (base === undefined) return null;
  const jittered = Math.round(base * (0.9 + 0.2 * random()));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Attempts after which a delivery whose host does not resolve is given up, not retried for 32 h. */
export const UNRESOLVED_MAX_ATTEMPTS = 3;

/**
 * The delay before the next attempt after `result` (`attempts` made so far, this one included),
 * or null to give up: the schedule's, except
 * that a host DNS says does not exist gets UNRESOLVED_MAX_ATTEMPTS attempts (a short outage of
 * its DNS is still ridden out by the first retries), and the error then says so.
 */
export function nextAttempt(
  schedule: number[],
  attempts: number,
  result: AttemptResult,
  random = Math.random,
): { delayMs: number | null; error: string | null } {
  const honourRetryAfter = result.statusCode === 429 || result.statusCode === 503;
  if (result.unresolved && attempts >= UNRESOLVED_MAX_ATTEMPTS) {
    return { delayMs: null, error: `${result.error}; gave up after ${attempts} attempts` };
  }
  return {
    delayMs: nextDelayMs(schedule, attempts, honourRetryAfter ? result.retryAfterMs : null, random),
    error: result.error,
  };
}
