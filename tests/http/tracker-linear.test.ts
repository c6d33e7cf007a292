import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call } from "../support/api";
import {
  FAKE_LINEAR_KEY,
  FAKE_LINEAR_READ_ONLY_KEY,
  startFakeLinear,
} from "../support/fake-linear";
import {
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_CREW_TOKEN,
  TEST_INTEGRATION_TOKEN,
  tempDir,
} from "../support/harness";
import { type SuiteContext, trackerSuite } from "../support/tracker-suite";

// The same action table with LINEAR_API_KEY set: Crewdeck drives Linear's GraphQL API through
// @linear/sdk, here against a loopback server that speaks the subset of Linear's schema it uses.
const mode = inject("db");
let fake: Awaited<ReturnType<typeof startFakeLinear>>;
let server: Proc & { url: string };
let ctx: SuiteContext;

async function serverWithKey(key: string) {
  const serverEnv: Record<string, string> = {
    DATA_DIR: tempDir("linear"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    SERVICE_PLATFORM_INTEGRATION_TOKEN: TEST_INTEGRATION_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "0",
    LINEAR_API_KEY: key,
    LINEAR_API_URL: fake.url,
  };
  if (mode === "postgres") serverEnv.DATABASE_URL = (await freshPostgresDatabase()) as string;
  return { proc: await startServer(serverEnv), serverEnv };
}

beforeAll(async () => {
  fake = await startFakeLinear();
  const s = await serverWithKey(FAKE_LINEAR_KEY);
  server = s.proc;
  ctx = { baseUrl: server.url, serverEnv: s.serverEnv };
});

afterAll(async () => {
  await server?.kill();
  await fake?.close();
});

trackerSuite(() => ctx);

describe("Linear specifics", () => {
  it("really goes through Linear's API (and not the embedded tracker)", () => {
    expect(fake.requests).toContain("IssueCreate");
    expect(fake.requests).toContain("SearchIssues");
    expect(fake.issues.size).toBeGreaterThan(0);
  });

  it("a rate limit is waited out (Retry-After) and the call retried", async () => {
    const teams = await call(
      ctx.baseUrl,
      "POST",
      "/api/integrations/actions/search_teams/execute",
      { token: TEST_INTEGRATION_TOKEN, body: { integration: {} } },
    );
    const started = Date.now();
    const r = await call(ctx.baseUrl, "POST", "/api/integrations/actions/create_issue/execute", {
      token: TEST_INTEGRATION_TOKEN,
      body: { integration: { teamId: teams.json.teams[0].id, title: "Busy day [ratelimit-once]" } },
    });
    expect(r.status, r.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(
      [...fake.issues.values()].filter((i) => i.title === "Busy day [ratelimit-once]"),
    ).toHaveLength(1);
  });

  it("a connection that lacks the write scope, and a wrong key, are permission_denied", async () => {
    const readOnly = await serverWithKey(FAKE_LINEAR_READ_ONLY_KEY);
    try {
      const act = (name: string, integration: unknown) =>
        call(readOnly.proc.url, "POST", `/api/integrations/actions/${name}/execute`, {
          token: TEST_INTEGRATION_TOKEN,
          body: { integration },
        });
      const teams = await act("search_teams", {});
      expect(teams.status, teams.text).toBe(200);
      const denied = await act("create_issue", { teamId: teams.json.teams[0].id, title: "x" });
      expect(denied.status).toBe(403);
      expect(denied.json.error.code).toBe("permission_denied");
    } finally {
      await readOnly.proc.kill();
    }
  });
});

describe("choosing Linear on the settings page", () => {
  it("saves the key sealed, never shows it, and switches the actions to Linear", async () => {
    const s = await startServer({
      DATA_DIR: tempDir("linear-settings"),
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      SERVICE_PLATFORM_INTEGRATION_TOKEN: TEST_INTEGRATION_TOKEN,
      LINEAR_API_URL: fake.url,
      ...(mode === "postgres" ? { DATABASE_URL: (await freshPostgresDatabase()) as string } : {}),
    });
    try {
      const admin = (method: string, path: string, body?: unknown) =>
        call(s.url, method, path, { token: TEST_CREW_TOKEN, body });
      expect((await admin("GET", "/api/integrations/settings")).json).toMatchObject({
        backend: "embedded",
        source: "default",
      });
      expect((await admin("POST", "/api/integrations/test")).json).toMatchObject({
        ok: true,
        backend: "embedded",
        teams: ["ENG", "OPS"],
      });

      expect((await admin("PUT", "/api/integrations/settings", { backend: "linear" })).status).toBe(
        422,
      ); // no key yet
      const bad = await admin("PUT", "/api/integrations/settings", {
        backend: "linear",
        linearKey: "lin_api_wrong",
      });
      expect(bad.status).toBe(200);
      expect(bad.text).not.toContain("lin_api_wrong");
      expect((await admin("POST", "/api/integrations/test")).json).toMatchObject({
        ok: false,
        backend: "linear",
        error: { code: "permission_denied" },
      });

      const good = await admin("PUT", "/api/integrations/settings", {
        backend: "linear",
        linearKey: FAKE_LINEAR_KEY,
      });
      expect(good.json).toMatchObject({
        backend: "linear",
        source: "settings",
        linear_key_saved: true,
        linear_key_hint: `…${FAKE_LINEAR_KEY.slice(-4)}`,
      });
      await new Promise((r) => setTimeout(r, 100));
      const before = fake.requests.length;
      expect((await admin("POST", "/api/integrations/test")).json).toMatchObject({
        ok: true,
        backend: "linear",
      });
      expect(fake.requests.length).toBeGreaterThan(before);
      const userToken = await call(s.url, "GET", "/api/integrations/settings");
      expect(userToken.status).toBe(401);
    } finally {
      await s.kill();
    }
  });
});
