import { afterAll, describe, expect, it } from "vitest";
import {
  FIXTURE_CREWS,
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
afterAll(async () => {
  await web?.kill("SIGKILL");
});

async function attempt(email: string, password: string, headers: Record<string, string> = {}) {
  const csrfRes = await fetch(`${web.url}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const cookie = (csrfRes.headers.getSetCookie() ?? []).map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${web.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: web.url }),
  });
  const signedIn = (res.headers.getSetCookie() ?? []).some((c) =>
    c.includes("authjs.session-token="),
  );
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: await res.text(),
    signedIn,
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
