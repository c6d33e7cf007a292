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
import { signIn } from "../support/session";

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
