import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import { TEST_ADMIN, TEST_CREW_TOKEN } from "../support/harness";
import { startReceiver } from "../support/receiver";
import { signIn } from "../support/session";

// Settings' API: the delivery log pages and never shows a URL's secrets; deployments are edited
// with a write-only token; the tracker's Test connection tests what the screen shows.
const baseUrl = inject("baseUrl");
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
let adminSession: Record<string, string>;
const admin = (method: string, path: string, body?: unknown) =>
  call(baseUrl, method, path, { headers: adminSession, body });
const asOrg = (method: string, path: string, body?: unknown) =>
  call(baseUrl, method, path, { token: TEST_CREW_TOKEN, body });
let rx: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  adminSession = {
    cookie: await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password),
    origin: baseUrl,
  };
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
});

describe("GET /api/webhooks/deliveries", () => {
  const SECRETS = ["s3cr3t-t", "s3cr3t-token", "s3cr3t-key", "s3cr3t-sig"];
  let id: string;
  beforeAll(async () => {
    const q = `t=${SECRETS[0]}&token=${SECRETS[1]}&key=${SECRETS[2]}&sig=${SECRETS[3]}&crew=kept`;
    const r = await brief.kickoff({
      inputs: { topic: "Kites", audience: "kids" },
      stepWebhookUrl: rx.url(`/step?${q}`),
      crewWebhookUrl: rx.url(`/crew?${q}`),
    });
    expect(r.status, r.text).toBe(200);
    id = r.json.kickoff_id;
    await brief.waitFor(id, (s) => s.status === "completed");
    await until(
      "deliveries settled",
      async () =>
        (await asOrg("GET", `/api/webhooks/deliveries?execution_id=${id}&limit=500`)).json
          .deliveries as Json[],
      (ds) => ds.length >= 3 && ds.every((d) => d.status === "succeeded"),
    );
  });

  it("redacts query-string secrets in the answer itself, keeping the rest of the URL", async () => {
    const r = await admin("GET", `/api/webhooks/deliveries?execution_id=${id}&limit=500`);
    expect(r.status).toBe(200);
    for (const s of SECRETS) expect(r.text).not.toContain(s);
    for (const d of r.json.deliveries as Json[]) {
      expect(d.url).toMatch(/\?t=REDACTED&token=REDACTED&key=REDACTED&sig=REDACTED&crew=kept$/);
      expect(d.crew).toBe("brief");
      expect(d.next_attempt_at).toBeNull(); // delivered: nothing owed
    }
    // The receiver did get the real URL: redaction is for display only.
    expect(rx.delivered().some((g) => g.path.includes(SECRETS[1] ?? "-"))).toBe(true);
  });

  it("pages with `before`: disjoint pages, newest first, that add up to the whole log", async () => {
    const all = (await admin("GET", `/api/webhooks/deliveries?execution_id=${id}&limit=500`)).json
      .deliveries as Json[];
    const seen: Json[] = [];
    let before: number | null = null;
    for (let n = 0; n < 100; n++) {
      const r = await admin(
        "GET",
        `/api/webhooks/deliveries?execution_id=${id}&limit=2${before ? `&before=${before}` : ""}`,
      );
      expect(r.status, r.text).toBe(200);
      seen.push(...r.json.deliveries);
      before = r.json.next_before;
      if (before === null) break;
    }
    expect(seen.map((d) => d.id)).toEqual(all.map((d) => d.id));
    const positions = seen.map((d) => d.position as number);
    expect([...positions].sort((a, b) => b - a)).toEqual(positions);
  });

  it("keeps its filters, refuses a bad query and non-administrators", async () => {
    const failed = await admin("GET", `/api/webhooks/deliveries?execution_id=${id}&status=failed`);
    expect(failed.json.deliveries).toEqual([]);
    expectProblem(await admin("GET", "/api/webhooks/deliveries?limit=0"), 400);
    expectProblem(await admin("GET", "/api/webhooks/deliveries?before=abc"), 400);
  });
});

describe("PATCH /api/deployments/<slug>", () => {
  let slug: string;
  beforeAll(async () => {
    // This very server plays the remote: its brief crew, with the organization token.
    const r = await admin("POST", "/api/deployments", {
      name: "Self",
      base_url: `${baseUrl}/api/crews/brief`,
      token: TEST_CREW_TOKEN,
    });
    expect(r.status, r.text).toBe(201);
    slug = r.json.slug;
  });

  it("renames with a blank token, keeping the saved one", async () => {
    const r = await admin("PATCH", `/api/deployments/${slug}`, { name: "Self renamed", token: "" });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ slug, name: "Self renamed" });
    expect(r.json.token).toBeUndefined();
    expect((await admin("POST", `/api/deployments/${slug}/test`)).json.ok).toBe(true);
  });

  it("replaces the token when one is given", async () => {
    const wrong = await admin("PATCH", `/api/deployments/${slug}`, { token: "not-the-token" });
    expect(wrong.status, wrong.text).toBe(200);
    expect((await admin("POST", `/api/deployments/${slug}/test`)).json.ok).toBe(false);
    await admin("PATCH", `/api/deployments/${slug}`, { token: TEST_CREW_TOKEN });
    expect((await admin("POST", `/api/deployments/${slug}/test`)).json.ok).toBe(true);
  });

  it.each([
    [{ base_url: "ftp://example.com/x" }, "base_url"],
    [{ base_url: "not a url" }, "base_url"],
    [{ name: "" }, "name"],
    [{ webhook_secret: "plain" }, "webhook_secret"],
    // Another origin with a blank token: the stored token must not follow it.
    [{ base_url: "http://127.0.0.1:9/api/crews/brief", token: "" }, "token"],
  ])("refuses %j (422 naming %s)", async (body, field) => {
    const r = await admin("PATCH", `/api/deployments/${slug}`, body);
    expectProblem(r, 422);
    expect(JSON.stringify(r.json.errors)).toContain(field);
  });

  it("answers 400 to malformed JSON, 403 to non-administrators, 404 to an unknown slug", async () => {
    const bad = await fetch(`${baseUrl}/api/deployments/${slug}`, {
      method: "PATCH",
      headers: { ...adminSession, "content-type": "application/json" },
      body: "{",
    });
    expect(bad.status).toBe(400);
    expectProblem(await asOrg("PATCH", `/api/deployments/${slug}`, { name: "x" }), 403);
    expectProblem(await admin("PATCH", "/api/deployments/no-such-one", { name: "x" }), 404);
    const listed = (await admin("GET", "/api/deployments")).json.deployments as Json[];
    expect(listed.find((d) => d.slug === slug)?.name).toBe("Self renamed");
  });
});

describe("POST /api/integrations/test", () => {
  it("without a body tests the saved backend (the embedded one by default)", async () => {
    const r = await admin("POST", "/api/integrations/test");
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ ok: true, backend: "embedded" });
  });

  it("with a body tests the backend chosen on screen, without saving it", async () => {
    const embedded = await admin("POST", "/api/integrations/test", { backend: "embedded" });
    expect(embedded.json).toMatchObject({ ok: true, backend: "embedded" });
    expect(Array.isArray(embedded.json.teams)).toBe(true);
    // Linear with a blank key and none saved: says so (and calls nobody).
    const linear = await admin("POST", "/api/integrations/test", {
      backend: "linear",
      linearKey: "",
    });
    expect(linear.json).toMatchObject({ ok: false, backend: "linear" });
    expect(linear.json.error.message).toMatch(/No Linear API key is saved/);
    const saved = await admin("GET", "/api/integrations/settings");
    expect(saved.json.backend).toBe("embedded");
  });

  it("refuses a bad body: 422 for an unknown backend, 400 for malformed JSON", async () => {
    expectProblem(await admin("POST", "/api/integrations/test", { backend: "jira" }), 422);
    const bad = await fetch(`${baseUrl}/api/integrations/test`, {
      method: "POST",
      headers: { ...adminSession, "content-type": "application/json" },
      body: "{nope",
    });
    expect(bad.status).toBe(400);
  });
});
