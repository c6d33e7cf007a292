// Failed-attempt counters for sign-in and first-run setup.
//
// Why this shape: a lock keyed by the account alone lets anyone lock anyone out (five wrong
// passwords from anywhere and the owner's right one is refused for up to an hour — the recovery
// administrator's included). So nothing here locks an account as a whole:
// - `pair` (`pair:<email>|<address>`): 5 failures in 15 min lock that account *from that address*
//   for 1 min, doubling up to 1 h. A guesser elsewhere locks only themselves out.
// - `address`: 20 failures in 15 min, across accounts, lock the address (a spray from one place).
// - `account` is a slow-down, not a lock: failures on the account from every address are counted,
//   and past 10 in 15 min each further attempt on it waits (0.5 s, doubling to 5 s) before its
//   password is checked. The right password still gets in, only slower. The wait is per request,
//   so it costs a guesser who spreads over many addresses little in aggregate; what bounds those
//   is the pair and address locks (each address gets a few guesses an hour) and the hash gate
//   (./sign-in-gate.ts), which caps password checks for the whole process.
// While locked, an attempt is refused before any password is checked — even the right one — so a
// guesser learns nothing during the lock. Keys use the email as typed (lower-cased), whether or
// not such a user exists, so a lock says nothing about which accounts exist. A success resets its
// pair (not the address: one valid account must not launder guesses at others; not the
// account's slow-down: the owner signing in does not mean the guessing stopped).
//
// Counters live in this process's memory: each web instance counts on its own, so N instances
// behind a balancer allow N times the attempts, and an administrator's unlock (unlockAccount)
// clears the instance it reaches. That is a deliberate trade: no table to write on every failed
// guess (which a flood would turn into database load) and nothing to clean up.

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

  /** Forgets every key that starts with `prefix`; returns how many were locked. */
  resetPrefix(prefix: string, now = Date.now()) {
    let locked = 0;
    for (const [k, e] of this.entries) {
      if (!k.startsWith(prefix)) continue;
      if (e.lockedUntil > now) locked += 1;
      this.entries.delete(k);
    }
    return locked;
  }

  private prune(now: number) {
    if (this.entries.size <= (this.opts.maxKeys ?? 50_000)) return;
    for (const [k, e] of this.entries)
      if (e.lockedUntil <= now && now - e.windowStart >= this.opts.windowMs) this.entries.delete(k);
  }
}

export type SlowDownOptions = {
  /** Failures within the window before attempts start to wait. */
  after: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxKeys?: number;
};

/**
 * Counts failures per key in a window; past `after` of them each attempt should wait before it
 * is checked, `baseDelayMs` doubling with every further failure, up to `maxDelayMs`. It never
 * refuses anyone.
 */
export class SlowDown {
  private entries = new Map<string, { failures: number; windowStart: number }>();

  constructor(private readonly opts: SlowDownOptions) {}

  /** How long an attempt on `key` waits now (0: none). */
  delayMs(key: string, now = Date.now()) {
    const e = this.current(key, now);
    const over = (e?.failures ?? 0) - this.opts.after;
    return over < 0 ? 0 : Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** over);
  }

  fail(key: string, now = Date.now()) {
    const e = this.current(key, now) ?? { failures: 0, windowStart: now };
    e.failures += 1;
    this.entries.set(key, e);
    if (this.entries.size > (this.opts.maxKeys ?? 50_000))
      for (const k of this.entries.keys()) if (!this.current(k, now)) this.entries.delete(k);
  }

  reset(key: string) {
    this.entries.delete(key);
  }

  private current(key: string, now: number) {
    const e = this.entries.get(key);
    if (e && now - e.windowStart >= this.opts.windowMs) this.entries.delete(key);
    else return e;
  }
}

const MINUTE = 60_000;

// Shared by every request of this process (and kept across Next's module reloads in dev; named
// anew when its shape changes, so a reload never finds an old one).
declare global {
  var __crewdeckSignInLocks:
    | { pair: Throttle; account: SlowDown; address: Throttle; setup: Throttle }
    | undefined;
}
const slot = globalThis;
slot.__crewdeckSignInLocks ??= {
  // 5 wrong passwords in 15 min lock the account, from that address, for 1 min, then 2, 4 … 1 h.
  pair: new Throttle({
    limit: 5,
    windowMs: 15 * MINUTE,
    baseLockMs: MINUTE,
    maxLockMs: 60 * MINUTE,
  }),
  // Past 10 wrong passwords in 15 min from anywhere, each attempt on the account waits 0.5 s,
  // then 1, 2, 4, 5 s at most.
  account: new SlowDown({
    after: 10,
    windowMs: 15 * MINUTE,
    baseDelayMs: 500,
    maxDelayMs: 5000,
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
export const throttles = slot.__crewdeckSignInLocks;

export const pairKey = (email: string, address: string) => `pair:${email.toLowerCase()}|${address}`;
export const accountKey = (email: string) => `account:${email.toLowerCase()}`;

/**
 * An administrator's unlock: forgets every pair lock and the slow-down of `email` — in this
 * process only (the counters live in each web instance's memory). Returns how many pairs were
 * locked.
 */
export function unlockAccount(email: string) {
  throttles.account.reset(accountKey(email));
  return throttles.pair.resetPrefix(`pair:${email.toLowerCase()}|`);
}
