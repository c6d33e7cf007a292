import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, type Json } from "../support/api";
import { startFakeLinear } from "../support/fake-linear";
import {
  FIXTURE_CREWS,
  freePort,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  TEST_INTEGRATION_TOKEN,
  tempDir,
} from "../support/harness";
import { signIn } from "../support/session";

// Connecting Linear by OAuth (authorization code + PKCE) against a loopback provider that speaks
// Linear's OAuth and GraphQL: the happy path, then every failure the issue lists, each landing on
// the settings page with a reason and leaving the saved connection as it was.
const CLIENT = { clientId: "crewdeck-test-client", clientSecret: "crewdeck-test-secret" };
let fake: Awaited<ReturnType<typeof startFakeLinear>>;
let server: Proc & { url: string };
let admin: string;

beforeAll(async () => {
  fake = await startFakeLinear({ oauth: CLIENT });
  const port = await freePort();
  const databaseUrl = inject("db") === "postgres" ? await freshPostgresDatabase() : undefined;
  server = await startServer({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: tempDir("oauth"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: TEST_CREW_TOKEN,
    SERVICE_PLATFORM_INTEGRATION_TOKEN: TEST_INTEGRATION_TOKEN,
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    LINEAR_CLIENT_ID: CLIENT.clientId,
    LINEAR_CLIENT_SECRET: CLIENT.clientSecret,
    LINEAR_API_URL: fake.url,
    ...fake.oauthUrls,
  });
  admin = await signIn(server.url, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await server?.kill();
  await fake?.close();
});

const get = (url: string, cookie?: string) =>
  fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });

// The browser's cookie jar, as far as this flow needs one: the session plus the state cookie
// Connect sets for the callback.
let stateCookie = "";

/** Connect Linear as far as Linear's answer: the callback URL the browser would be sent to. */
async function consent(decision: "approve" | "deny", cookie = admin) {
  const start = await get(`${server.url}/api/integrations/linear/connect`, cookie);
  expect(start.status).toBe(302);
  stateCookie = (start.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  expect(stateCookie).toMatch(/^crewdeck_linear_oauth=/);
  const authorize = new URL(start.headers.get("location") ?? "");
  authorize.searchParams.set("decision", decision);
  const back = await get(authorize.toString());
  expect(back.status).toBe(302);
  return back.headers.get("location") ?? "";
}

/** Follows the callback as the browser would; returns where the settings page is told to go. */
async function land(callbackUrl: string, cookie = admin, withStateCookie = true) {
  const r = await get(callbackUrl, withStateCookie ? `${cookie}; ${stateCookie}` : cookie);
  expect(r.status).toBe(303);
  return new URL(r.headers.get("location") ?? "").searchParams;
}

const status = async () =>
  (await call(server.url, "GET", "/api/integrations/linear", { token: TEST_CREW_TOKEN })).json;
const act = (name: string, integration: unknown) =>
  call(server.url, "POST", `/api/integrations/actions/${name}/execute`, {
    token: TEST_INTEGRATION_TOKEN,
    body: { integration },
  });

describe("Connect Linear (OAuth)", () => {
  it("sends the administrator to Linear with state, PKCE and the scopes it needs", async () => {
    const start = await get(`${server.url}/api/integrations/linear/connect`, admin);
    const to = new URL(start.headers.get("location") ?? "");
    expect(`${to.origin}${to.pathname}`).toBe(fake.oauthUrls.LINEAR_OAUTH_AUTHORIZE_URL);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      response_type: "code",
      scope: "read,write",
      code_challenge_method: "S256",
      redirect_uri: `${server.url}/api/integrations/linear/callback`,
    });
    expect(to.searchParams.get("state")?.length).toBeGreaterThanOrEqual(40);
    expect(to.searchParams.get("code_challenge")?.length).toBe(43);
    // Not for tokens: the flow belongs to a person at the dashboard.
    const byToken = await call(server.url, "GET", "/api/integrations/linear/connect", {
      token: TEST_CREW_TOKEN,
    });
    expect(byToken.status).toBe(403);
  });

  it("approve → connected: the workspace, who connected it, and actions run with the token", async () => {
    const query = await land(await consent("approve"));
    expect(query.get("linear")).toBe("connected");
    const s = await status();
    expect(s.connection).toMatchObject({
      status: "connected",
      workspace: "Fake Workspace",
      connected_by: TEST_ADMIN.email,
      scopes: ["read", "write"],
    });
    const r = await act("search_teams", {});
    expect(r.status, r.text).toBe(200);
    expect(r.json.teams.map((t: Json) => t.key)).toContain("ENG");
    const text = JSON.stringify(s);
    for (const token of fake.oauthTokens.keys()) expect(text).not.toContain(token);
  });

  it("a replayed answer, an unknown state and another person's state are refused; nothing changes", async () => {
    const callback = await consent("approve");
    await land(callback);
    const before = await status();
    expect((await land(callback)).get("linear_error")).toMatch(/already used/);
    const bogus = new URL(callback);
    bogus.searchParams.set("state", "not-a-state-we-issued");
    expect((await land(bogus.toString())).get("linear_error")).toMatch(/does not match/);
    // A second administrator finishing the first one's flow.
    const other = { email: "second-admin@example.com", password: "second admin password" };
    const created = await call(server.url, "POST", "/api/users", {
      headers: { cookie: admin, origin: server.url },
      body: { ...other, role: "admin" },
    });
    expect(created.status, created.text).toBe(201);
    const otherCookie = await signIn(server.url, other.email, other.password);
    expect((await land(await consent("approve"), otherCookie)).get("linear_error")).toMatch(
      /another session/,
    );
    // The same administrator, but another browser (no state cookie): refused as well.
    const elsewhere = await consent("approve");
    expect((await land(elsewhere, admin, false)).get("linear_error")).toMatch(/another/);
    expect((await status()).connection.connected_at).toBe(before.connection.connected_at);
  });

  it("denied consent, an expired code and a token endpoint error each say so and save nothing", async () => {
    const before = (await status()).connection.connected_at;
    expect((await land(await consent("deny"))).get("linear_error")).toMatch(/denied/);
    fake.setOAuth({ codeTtlMs: -1 });
    expect((await land(await consent("approve"))).get("linear_error")).toMatch(
      /invalid_grant.*expired or was already used/,
    );
    fake.setOAuth({ codeTtlMs: 60_000, tokenEndpointDown: true });
    expect((await land(await consent("approve"))).get("linear_error")).toMatch(/server_error/);
    fake.setOAuth({ tokenEndpointDown: false });
    expect((await status()).connection.connected_at).toBe(before);
  });

  it("refreshes a token about to expire before using it", async () => {
    fake.setOAuth({ expiresIn: 30 }); // under a minute: refreshed on first use
    await land(await consent("approve"));
    const issued = [...fake.oauthTokens.keys()];
    expect((await act("search_teams", {})).status).toBe(200);
    const now = [...fake.oauthTokens.keys()];
    expect(now.some((t) => !issued.includes(t))).toBe(true);
    fake.setOAuth({ expiresIn: 36_000 });
  });

  it("a connection without the write scope: reads work, writes name the missing scope", async () => {
    fake.setOAuth({ grant: ["read"] });
    await land(await consent("approve"));
    expect((await status()).connection.scopes).toEqual(["read"]);
    expect((await act("search_teams", {})).status).toBe(200);
    const teams = (await act("search_teams", {})).json.teams;
    const denied = await act("create_issue", { teamId: teams[0].id, title: "Needs write" });
    expect(denied.status).toBe(403);
    expect(denied.text).toMatch(/lacks the scope 'write'/);
    fake.setOAuth({ grant: undefined });
  });

  it("a token revoked at Linear: the action says to reconnect and the integration shows disconnected", async () => {
    await land(await consent("approve"));
    fake.revokeAll();
    const r = await act("search_teams", {});
    expect(r.status).toBe(403);
    expect(r.text).toMatch(/reconnect Linear/);
    expect((await status()).connection.status).toBe("revoked");
  });

  it("Disconnect forgets the connection", async () => {
    await land(await consent("approve"));
    const r = await call(server.url, "POST", "/api/integrations/linear/disconnect", {
      token: TEST_CREW_TOKEN,
    });
    expect(r.status).toBe(200);
    expect(r.json.connection).toBeNull();
    expect(fake.oauthTokens.size).toBe(0);
  });
});
