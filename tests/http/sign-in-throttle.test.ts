import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";

// Sign-in throttling over next-auth's own endpoint, on a server of this test's own (locking the
// shared server's admin or loopback address would refuse every other test). TRUST_PROXY is off:
// an X-Forwarded-For the client makes up must not buy it a fresh counter.
let web: Proc & { url: string };
let proxied: Proc & { url: string };
afterAll(async () => {
  await web?.kill("SIGKILL");
  await proxied?.kill("SIGKILL");
});

async function attempt(email: string, password: string, headers: Record<string, string> = {}) {
  return attemptAt(web.url, email, password, headers);
}

async function attemptAt(
  url: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const csrfRes = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const cookie = (csrfRes.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: url }),
  });
  const signedIn = (res.headers.getSetCookie() ?? []).some((c) =>
    c.includes("authjs.session-token="),
  );
  const session = (res.headers.getSetCookie() ?? [])
    .map((c) => c.split(";")[0] as string)
    .find((c) => c.includes("authjs.session-token="));
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: await res.text(),
    signedIn,
    session,
  };
}

describe("sign-in throttling", () => {
  it("locks an account after 5 wrong passwords; the right one is refused with 429 and Retry-After", async () => {
    web = await startServer({
      DATA_DIR: tempDir("signin"),
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    });
    // The right password works before any failure (the account is real).
    expect((await attempt(TEST_ADMIN.email, TEST_ADMIN.password)).signedIn).toBe(true);
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await attempt(TEST_ADMIN.email, `wrong ${i}`)).status);
    expect(wrong).toEqual([302, 302, 302, 302, 429]);
    const locked = await attempt(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(locked.signedIn).toBe(false);
    expect(locked.status).toBe(429);
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(locked.body).toMatch(/Too many attempts; try again in \d+ minute/);
  });

  it("an unknown email is locked the same way, so a lock does not tell which emails exist", async () => {
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await attempt("ghost@example.com", `x${i}`)).status);
    expect(wrong).toEqual([302, 302, 302, 302, 429]);
    const known = await attempt(TEST_ADMIN.email, "x");
    const unknown = await attempt("ghost@example.com", "x");
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
  });

  it("a made-up X-Forwarded-For does not escape the per-address lock", async () => {
    // 10 failures so far from this address; it locks at 20, whatever each request claims.
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const r = await attempt(`someone${i}@example.com`, "x", {
        "x-forwarded-for": `203.0.113.${i + 1}`,
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([...Array(9).fill(302), 429, 429, 429]);
    const fresh = await attempt("fresh@example.com", "x", { "x-forwarded-for": "198.51.100.1" });
    expect(fresh.status).toBe(429);
  });

  it("the sign-in page tells a lock from a wrong password", async () => {
    const page = (code: string) =>
      fetch(`${web.url}/sign-in?error=1&code=${code}`).then((r) => r.text());
    expect(await page("throttled-120")).toContain("Too many attempts; try again in 2 minutes.");
    expect(await page("credentials")).toContain("Wrong email or password.");
  });

  it("logs a failed sign-in as one line, without a stack trace", async () => {
    const out = web.output();
    expect(out).toMatch(/\[auth\] sign-in refused for "ghost@example.com" from 127\.0\.0\.1/);
    expect(out).not.toMatch(/CredentialsSignin/);
    expect(out).not.toMatch(/^\s+at /m);
  });
});

// Behind a proxy (TRUST_PROXY), so each request can say which address it comes from.
describe("a lock is per account and address: nobody can lock the owner out", () => {
  const A = { "x-forwarded-for": "203.0.113.50" };
  const B = { "x-forwarded-for": "198.51.100.60" };
  const at = (email: string, password: string, from: Record<string, string>) =>
    attemptAt(proxied.url, email, password, from);

  beforeAll(async () => {
    const env = {
      DATA_DIR: tempDir("signin-pairs"),
      CREWS_DIR: FIXTURE_CREWS,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      TRUST_PROXY: "true",
      RUN_WORKER: "false",
    };
    proxied = await startServer(
      inject("db") === "postgres"
        ? { ...env, DATABASE_URL: (await freshPostgresDatabase()) as string }
        : env,
    );
  }, 120_000);

  it("5 wrong passwords from A for the administrator; the right one from B signs in, A stays locked until an admin unlocks it", async () => {
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push((await at(TEST_ADMIN.email, `wrong ${i}`, A)).status);
    expect(wrong).toEqual([302, 302, 302, 302, 429]);
    const elsewhere = await at(TEST_ADMIN.email, TEST_ADMIN.password, B);
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.signedIn).toBe(true);
    expect((await at(TEST_ADMIN.email, TEST_ADMIN.password, A)).status).toBe(429);

    const admin = { cookie: elsewhere.session as string, origin: proxied.url, ...B };
    const users = await call(proxied.url, "GET", "/api/users", { headers: admin });
    const me = users.json.users.find((u: { email: string }) => u.email === TEST_ADMIN.email);
    // Only an administrator may unlock: a viewer is refused and A stays locked.
    const viewer = { email: "viewer@example.com", password: "viewer password 1", role: "viewer" };
    expect(
      (await call(proxied.url, "POST", "/api/users", { headers: admin, body: viewer })).status,
    ).toBe(201);
    const viewerSession = (await at(viewer.email, viewer.password, B)).session as string;
    const refused = await call(proxied.url, "POST", `/api/users/${me.id}/unlock`, {
      headers: { cookie: viewerSession, origin: proxied.url },
    });
    expect(refused.status).toBe(403);
    expect((await at(TEST_ADMIN.email, TEST_ADMIN.password, A)).status).toBe(429);

    const unlocked = await call(proxied.url, "POST", `/api/users/${me.id}/unlock`, {
      headers: admin,
    });
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.json).toEqual({ email: TEST_ADMIN.email, locked_pairs: 1 });
    expect((await at(TEST_ADMIN.email, TEST_ADMIN.password, A)).signedIn).toBe(true);
    expect(proxied.output()).toMatch(/sign-in locks of "[^"]+" cleared by/);
  });
});
