import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, expectProblem } from "../support/api";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  tempDir,
} from "../support/harness";
import { signIn, signInForm } from "../support/session";

// A signed-in browser's POST must come from the dashboard's own origin. X-Forwarded-Host is a
// header any client can write: it names the origin only when TRUST_PROXY says a proxy sets it.
const baseUrl = inject("baseUrl");
const mode = inject("db");
let trusting: Proc & { url: string };

// No Sec-Fetch-Site (as from an old browser or a script): the Origin check decides.
const postUsers = (url: string, cookie: string, headers: Record<string, string>) =>
  call(url, "POST", "/api/users", { headers: { cookie, ...headers }, body: {} });

beforeAll(async () => {
  const env = {
    DATA_DIR: tempDir("trust-proxy"),
    CREWS_DIR: FIXTURE_CREWS,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    TRUST_PROXY: "true",
    RUN_WORKER: "false",
  };
  trusting = await startServer(
    mode === "postgres" ? { ...env, DATABASE_URL: (await freshPostgresDatabase()) as string } : env,
  );
});
afterAll(async () => {
  await trusting?.kill();
});

describe("same-origin check for signed-in requests", () => {
  it("ignores X-Forwarded-Host by default: a page naming itself there is refused", async () => {
    const cookie = await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const forged = await postUsers(baseUrl, cookie, {
      origin: "https://evil.example",
      "x-forwarded-host": "evil.example",
    });
    expectProblem(forged, 403);
    expect(forged.json.detail).toMatch(/Cross-site/);
    // The dashboard's own origin (matching Host) gets through to validation.
    expectProblem(await postUsers(baseUrl, cookie, { origin: baseUrl }), 422);
  });

  it("with TRUST_PROXY=true, the proxy's X-Forwarded-Host names the origin", async () => {
    const cookie = await signIn(trusting.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const viaProxy = await postUsers(trusting.url, cookie, {
      origin: "https://crew.example",
      "x-forwarded-host": "crew.example",
    });
    expectProblem(viaProxy, 422);
    const otherSite = await postUsers(trusting.url, cookie, {
      origin: "https://evil.example",
      "x-forwarded-host": "crew.example",
    });
    expectProblem(otherSite, 403);
  });
});

// The sign-in form is a server action: next-auth builds its redirect and its cookie from
// X-Forwarded-Host/-Proto, and Next answers a foreign Origin itself with a 500.
describe("the sign-in form's server action", () => {
  const post = async (url: string, headers: Record<string, string>) =>
    (await signInForm(url, "/runs")).post(TEST_ADMIN.email, TEST_ADMIN.password, headers);
  const cookies = (r: Response) => r.headers.getSetCookie().join("\n");
  const forged = { "x-forwarded-host": "evil.test", "x-forwarded-proto": "https" };

  it("ignores X-Forwarded-Host/-Proto by default: signs in on the addressed host only", async () => {
    // With no Origin (Sec-Fetch-Site alone, as a script may send), and with the dashboard's.
    const froms: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin" },
      { origin: baseUrl },
    ];
    for (const from of froms) {
      const r = await post(baseUrl, { ...from, ...forged });
      expect(r.status, JSON.stringify(from)).toBe(303);
      expect(r.headers.get("location")).toBe(`${baseUrl}/runs`);
      expect(cookies(r)).toMatch(/^authjs\.session-token=/m);
      expect(cookies(r)).not.toMatch(/evil\.test|__Secure-|Domain=/i);
    }
  });

  it("refuses a foreign or opaque Origin with 403, as a form post and as a fetch", async () => {
    const form = await signInForm(baseUrl, "/runs");
    for (const origin of ["https://evil.example", "null", "not a url"]) {
      const asForm = await form.post(TEST_ADMIN.email, TEST_ADMIN.password, { origin, ...forged });
      expect(asForm.status, origin).toBe(403);
      expect(asForm.headers.get("content-type")).toContain("application/problem+json");
      expect(cookies(asForm)).toBe("");
      const asFetch = await call(baseUrl, "POST", "/sign-in", {
        headers: { origin, "next-action": form.actionId },
        body: "[]",
      });
      expectProblem(asFetch, 403);
    }
    // Neither Origin nor Sec-Fetch-Site: no browser sends that; refused as the API refuses it.
    expect((await post(baseUrl, {})).status).toBe(403);
  });

  it("with TRUST_PROXY=true, signs in on the proxy's host and scheme", async () => {
    const r = await post(trusting.url, {
      origin: "https://crew.example",
      "x-forwarded-host": "crew.example",
      "x-forwarded-proto": "https",
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("https://crew.example/runs");
    expect(cookies(r)).toMatch(/^__Secure-authjs\.session-token=/m);
    const otherSite = await post(trusting.url, {
      origin: "https://evil.example",
      "x-forwarded-host": "crew.example",
    });
    expect(otherSite.status).toBe(403);
  });
});
