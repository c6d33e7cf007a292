import crypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clientAddress, PEER_HEADER } from "@/lib/auth/client-address";
import { dummyHash, hashPassword, parseHash } from "@/lib/auth/passwords";
import {
  checkSignIn,
  recoveryPath,
  refusalCode,
  refusalMessage,
  SignInRefused,
} from "@/lib/auth/sign-in-check";
import { Busy, Semaphore } from "@/lib/auth/sign-in-gate";
import { SlowDown, Throttle, throttles, unlockAccount } from "@/lib/auth/sign-in-throttle";
import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";

// The sign-in check against a one-table stand-in for the database (findUserForSignIn's only
// query); the hashing, throttling and gate are the real ones.
const PASSWORD = "right password 123";
let known: { id: string; email: string; name: null; role: "admin"; password_hash: string | null }[];
const db = {
  kind: "embedded",
  query: async (_sql: string, params?: unknown[]) => {
    const rows = known.filter((u) => u.email === params?.[0]);
    return { rows, rowCount: rows.length };
  },
} as unknown as Db;

let n = 0;
// Each test its own client address, so address counters do not carry over between tests.
const from = () => new Headers({ [PEER_HEADER]: `192.0.2.${++n}` });

beforeAll(async () => {
  known = [
    {
      id: "u1",
      email: "ada@example.com",
      name: null,
      role: "admin",
      password_hash: await hashPassword(PASSWORD),
    },
    // Created by a user token: exists, but has no password.
    { id: "u2", email: "nopass@example.com", name: null, role: "admin", password_hash: null },
  ];
  await dummyHash(); // made once per process; not what the tests below count
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

async function refusal(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SignInRefused);
  return err as SignInRefused;
}

describe("equal work for unknown emails", () => {
  it("runs one full scrypt, with the real parameters, for a known, an unknown and a password-less email", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const expected = parseHash(known[0]?.password_hash ?? "");
    expect(expected).toBeDefined();
    for (const email of ["ada@example.com", "nobody@example.com", "nopass@example.com"]) {
      const spy = vi.spyOn(crypto, "scrypt");
      expect((await refusal(checkSignIn(db, { email, password: "wrong" }, from()))).reason).toBe(
        "invalid",
      );
      expect(spy, email).toHaveBeenCalledTimes(1);
      const [, salt, keyLen, opts] = spy.mock.calls[0] as unknown as [
        string,
        Buffer,
        number,
        crypto.ScryptOptions,
      ];
      expect({ N: opts.N, r: opts.r, p: opts.p }).toEqual(expected?.params);
      expect(keyLen).toBe(expected?.key.length);
      expect(salt.length).toBe(expected?.salt.length);
      spy.mockRestore();
    }
  });

  it("the dummy hash parses as a hash of the current parameters", async () => {
    expect(parseHash(await dummyHash())?.params).toEqual(
      parseHash(await hashPassword("x"))?.params,
    );
  });
});

describe("throttling", () => {
  it("5 failures lock the account from that address only; the owner elsewhere gets in", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    known.push({ ...(known[0] as (typeof known)[0]), id: "u5", email: "carol@example.com" });
    const email = "carol@example.com";
    const attacker = from();
    for (let i = 0; i < 4; i++)
      expect((await refusal(checkSignIn(db, { email, password: "nope" }, attacker))).reason).toBe(
        "invalid",
      );
    const fifth = await refusal(checkSignIn(db, { email, password: "nope" }, attacker));
    expect(fifth.reason).toBe("throttled");
    expect(fifth.retryAfterS).toBe(60);
    // Locked from there: even the right password is refused, without a hash.
    const spy = vi.spyOn(crypto, "scrypt");
    const locked = await refusal(checkSignIn(db, { email, password: PASSWORD }, attacker));
    expect(locked.reason).toBe("throttled");
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    // The owner, from another address, is not.
    expect((await checkSignIn(db, { email, password: PASSWORD }, from())).id).toBe("u5");
    vi.setSystemTime(Date.now() + 60_001);
    expect((await checkSignIn(db, { email, password: PASSWORD }, attacker)).id).toBe("u5");
  });

  it("past 10 failures from anywhere, attempts on the account wait (growing, capped) but the right password gets in", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    known.push({ ...(known[0] as (typeof known)[0]), id: "u6", email: "dan@example.com" });
    const email = "dan@example.com";
    const waits: number[] = [];
    const wait = async (ms: number) => waits.push(ms);
    // 14 wrong guesses, each from its own address: no pair or address lock is reached.
    for (let i = 0; i < 14; i++)
      expect(
        (await refusal(checkSignIn(db, { email, password: "nope" }, from(), wait))).reason,
      ).toBe("invalid");
    expect(waits).toEqual([500, 1000, 2000, 4000]);
    expect((await checkSignIn(db, { email, password: PASSWORD }, from(), wait)).id).toBe("u6");
    expect(waits.at(-1)).toBe(5000);
    // The recovery administrator at the machine itself is not slowed.
    const settings = env() as { ADMIN_EMAIL?: string };
    const before = settings.ADMIN_EMAIL;
    settings.ADMIN_EMAIL = email; // env() is read once per process: set on the parsed copy
    try {
      const local = new Headers({ [PEER_HEADER]: "::ffff:127.0.0.1" });
      expect((await checkSignIn(db, { email, password: PASSWORD }, local, wait)).id).toBe("u6");
      expect(waits).toHaveLength(5);
      // From elsewhere they wait like anyone.
      await checkSignIn(db, { email, password: PASSWORD }, from(), wait);
      expect(waits).toHaveLength(6);
    } finally {
      settings.ADMIN_EMAIL = before;
    }
    throttles.account.reset(`account:${email}`);
  });

  it("an administrator's unlock clears every pair lock and the slow-down of the account", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    known.push({ ...(known[0] as (typeof known)[0]), id: "u7", email: "eve@example.com" });
    const email = "eve@example.com";
    const [a, b] = [from(), from()];
    for (const h of [a, b])
      for (let i = 0; i < 5; i++) await refusal(checkSignIn(db, { email, password: "x" }, h));
    expect((await refusal(checkSignIn(db, { email, password: PASSWORD }, a))).reason).toBe(
      "throttled",
    );
    expect(throttles.account.delayMs(`account:${email}`)).toBe(500);
    expect(unlockAccount("Eve@Example.com")).toBe(2);
    expect(throttles.account.delayMs(`account:${email}`)).toBe(0);
    for (const h of [a, b])
      expect((await checkSignIn(db, { email, password: PASSWORD }, h)).id).toBe("u7");
  });

  it("the recovery path is ADMIN_EMAIL from loopback only", () => {
    expect(recoveryPath("Root@x.io", "127.0.0.1", "root@x.io")).toBe(true);
    expect(recoveryPath("root@x.io", "::1", "root@x.io")).toBe(true);
    expect(recoveryPath("root@x.io", "192.0.2.1", "root@x.io")).toBe(false);
    expect(recoveryPath("other@x.io", "127.0.0.1", "root@x.io")).toBe(false);
    expect(recoveryPath("root@x.io", "unknown", "root@x.io")).toBe(false);
    expect(recoveryPath("root@x.io", "127.0.0.1", undefined)).toBe(false);
  });

  it("the slow-down grows from its threshold, is capped, and a quiet window forgets it", () => {
    const s = new SlowDown({ after: 2, windowMs: 1000, baseDelayMs: 10, maxDelayMs: 35 });
    const delays = [];
    for (let i = 0; i < 6; i++) {
      delays.push(s.delayMs("k", 0));
      s.fail("k", 0);
    }
    expect(delays).toEqual([0, 0, 10, 20, 35, 35]);
    expect(s.delayMs("k", 999)).toBe(35);
    expect(s.delayMs("k", 1000)).toBe(0);
  });

  it("an unknown email is locked and refused exactly as a known one", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    known.push({ ...(known[0] as (typeof known)[0]), id: "u3", email: "ada2@example.com" });
    const answers: string[] = [];
    for (const email of ["ada2@example.com", "ghost@example.com"]) {
      const headers = from();
      for (let i = 0; i < 6; i++) {
        const r = await refusal(checkSignIn(db, { email, password: "nope" }, headers));
        answers.push(`${email === "ghost@example.com" ? "B" : "A"}${i}:${refusalCode(r)}`);
      }
    }
    const a = answers.slice(0, 6).map((s) => s.slice(1));
    const b = answers.slice(6).map((s) => s.slice(1));
    expect(b).toEqual(a);
    expect(a.at(-1)).toBe("5:throttled-60");
  });

  it("a success resets its pair's count", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    known.push({ ...(known[0] as (typeof known)[0]), id: "u4", email: "bob@example.com" });
    const email = "bob@example.com";
    const headers = from();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++)
        expect((await refusal(checkSignIn(db, { email, password: "x" }, headers))).reason).toBe(
          "invalid",
        );
      expect((await checkSignIn(db, { email, password: PASSWORD }, headers)).id).toBe("u4");
    }
  });

  it("locks an address that fails on many accounts", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const headers = from();
    const reasons = [];
    for (let i = 0; i < 20; i++)
      reasons.push(
        (await refusal(checkSignIn(db, { email: `p${i}@example.com`, password: "x" }, headers)))
          .reason,
      );
    expect(reasons.slice(0, 19).every((r) => r === "invalid")).toBe(true);
    expect(reasons[19]).toBe("throttled");
    throttles.address.reset(`address:${headers.get(PEER_HEADER)}`);
  });

  it("each further lockout doubles the lock, up to the maximum", () => {
    const t = new Throttle({ limit: 2, windowMs: 1000, baseLockMs: 100, maxLockMs: 350 });
    let now = 0;
    const locks = [];
    for (let i = 0; i < 4; i++) {
      t.fail("k", now);
      locks.push(t.fail("k", now));
      expect(t.retryAfterMs("k", now)).toBe(locks.at(-1));
      now += locks.at(-1) ?? 0;
      expect(t.retryAfterMs("k", now)).toBe(0);
    }
    expect(locks).toEqual([100, 200, 350, 350]);
    // A quiet window after the lock ended forgives the lockouts.
    now += 1000;
    t.fail("k", now);
    expect(t.fail("k", now)).toBe(100);
  });
});

describe("hash gate", () => {
  it("runs at most `max` at once, queues `maxQueue`, refuses the rest at once", async () => {
    const gate = new Semaphore(1, 2);
    const releases: (() => void)[] = [];
    const started: number[] = [];
    const job = (i: number) => () =>
      new Promise<number>((resolve) => {
        started.push(i);
        releases.push(() => resolve(i));
      });
    const a = gate.run(job(1));
    const b = gate.run(job(2));
    const c = gate.run(job(3));
    await expect(gate.run(job(4))).rejects.toBeInstanceOf(Busy);
    expect(started).toEqual([1]);
    expect(gate.stats).toEqual({ running: 1, waiting: 2 });
    for (const [i, p] of [a, b, c].entries()) {
      releases[i]?.();
      expect(await p).toBe(i + 1);
    }
    expect(started).toEqual([1, 2, 3]);
    expect(gate.stats).toEqual({ running: 0, waiting: 0 });
  });
});

describe("client address", () => {
  const h = (x: Record<string, string>) => new Headers(x);
  it("ignores X-Forwarded-For unless TRUST_PROXY", () => {
    const headers = h({ "x-forwarded-for": "203.0.113.9", [PEER_HEADER]: "::ffff:127.0.0.1" });
    expect(clientAddress(headers, false)).toBe("127.0.0.1");
    expect(clientAddress(headers, true)).toBe("203.0.113.9");
  });
  it("behind a proxy, takes the entry the proxy appended, not the client's claim", () => {
    const headers = h({ "x-forwarded-for": "1.2.3.4, 198.51.100.7", [PEER_HEADER]: "10.0.0.2" });
    expect(clientAddress(headers, true)).toBe("198.51.100.7");
  });
});

describe("messages", () => {
  it("a lock says how long, distinct from a wrong password", () => {
    expect(refusalMessage("credentials")).toBe("Wrong email or password.");
    expect(refusalMessage("throttled-60")).toBe("Too many attempts; try again in 1 minute.");
    expect(refusalMessage("throttled-200")).toBe("Too many attempts; try again in 4 minutes.");
    expect(refusalMessage("busy-1")).toMatch(/busy/);
  });
});
