// Failed-attempt counters for sign-in and first-run setup, per key (an email, a client address).
//
// After `limit` failures within `windowMs` the key is locked for `baseLockMs`; each further
// lockout doubles the lock, up to `maxLockMs`. While locked, every attempt is refused before any
// password is checked — even the right one — so a guesser learns nothing during the lock. Keys are
// the email as typed (lower-cased), whether or not such a user exists, so a lock says nothing about
// which accounts exist. A success resets the key's count (sign-in does so for the account only:
// resetting the address too would let one valid account launder guesses at others).
//
// Counters live in this process's memory: each web instance counts on its own, so N instances
// behind a balancer allow N times the attempts. That is a deliberate trade: no table to write on
// every failed guess (which a flood would turn into database load) and nothing to clean up.

export type ThrottleOptions = {
  limit: number;
  windowMs: number;
  baseLockMs: number;
  maxLockMs: number;
  /** Beyond this many keys, entries that no longer matter are forgotten. */
  maxKeys?: number;
};

type Entry = { failures: number; windowStart: number; lockedUntil: number; lockouts: number };

export class Throttle {
  private entries = new Map<string, Entry>();

  constructor(private readonly opts: ThrottleOptions) {}

  /** Milliseconds until `key` may try again; 0 when it may now. */
  retryAfterMs(key: string, now = Date.now()) {
    const e = this.entries.get(key);
    return e && e.lockedUntil > now ? e.lockedUntil - now : 0;
  }

  /** Counts a failure; returns the lock it caused in ms (0 when still under the limit). */
  fail(key: string, now = Date.now()) {
    const { limit, windowMs, baseLockMs, maxLockMs } = this.opts;
    const e = this.entries.get(key) ?? {
      failures: 0,
      windowStart: now,
      lockedUntil: 0,
      lockouts: 0,
    };
    // A quiet window after the last lock ended forgives earlier lockouts too.
    if (now - e.windowStart >= windowMs) {
      if (now - Math.max(e.windowStart, e.lockedUntil) >= windowMs) e.lockouts = 0;
      e.failures = 0;
      e.windowStart = now;
    }
    e.failures += 1;
    let lockMs = 0;
    if (e.failures >= limit) {
      lockMs = Math.min(maxLockMs, baseLockMs * 2 ** e.lockouts);
      e.lockouts += 1;
      e.lockedUntil = now + lockMs;
      e.failures = 0;
      e.windowStart = now;
    }
    this.entries.set(key, e);
    this.prune(now);
    return lockMs;
  }

  reset(key: string) {
    this.entries.delete(key);
  }

  private prune(now: number) {
    if (this.entries.size <= (this.opts.maxKeys ?? 50_000)) return;
    for (const [k, e] of this.entries)
      if (e.lockedUntil <= now && now - e.windowStart >= this.opts.windowMs) this.entries.delete(k);
  }
}

const MINUTE = 60_000;

// Shared by every request of this process (and kept across Next's module reloads in dev).
const slot = globalThis as unknown as {
  __crewdeckSignInThrottles?: { account: Throttle; address: Throttle; setup: Throttle };
};
slot.__crewdeckSignInThrottles ??= {
  // 5 wrong passwords in 15 min lock the account for 1 min, then 2, 4 … up to 1 h.
  account: new Throttle({
    limit: 5,
    windowMs: 15 * MINUTE,
    baseLockMs: MINUTE,
    maxLockMs: 60 * MINUTE,
  }),
  // One address may get more wrong (a shared office NAT, typos across accounts), but not many more.
  address: new Throttle({
    limit: 20,
    windowMs: 15 * MINUTE,
    baseLockMs: MINUTE,
    maxLockMs: 60 * MINUTE,
  }),
  // Wrong setup codes, per address.
  setup: new Throttle({
    limit: 5,
    windowMs: 15 * MINUTE,
    baseLockMs: MINUTE,
    maxLockMs: 60 * MINUTE,
  }),
};
export const throttles = slot.__crewdeckSignInThrottles;
