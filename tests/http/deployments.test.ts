import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { StatusResponseSchema } from "@/lib/contract/status";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import {
  type FakeCrewAI,
  failureScript,
  holdLastStep,
  startFakeCrewAI,
  successScript,
} from "../support/fake-crewai";
import {
  FIXTURE_CREWS,
  freePort,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
} from "../support/harness";
import { signIn } from "../support/session";

// Remote deployments: the suite's server is the dashboard; a second Crewdeck on another loopback
// port (which calls back by webhook) and a CrewAI-shaped fake (which never does) are the remotes.
const baseUrl = inject("baseUrl");
const REMOTE_TOKEN = "remote-org-token-0123456789abcdef";
const FAKE_TOKEN = "fake-crewai-token-0123456789";
let remote: Proc & { url: string };
let fake: FakeCrewAI;
let adminSession: Record<string, string>;

// Managing deployments is for administrators: the suite acts as the signed-in admin.
const admin = (method: string, path: string, body?: unknown) =>
  call(baseUrl, method, path, { headers: adminSession, body });
const asOrg = (method: string, path: string, body?: unknown) =>
  call(baseUrl, method, path, { token: TEST_CREW_TOKEN, body });

async function addDeployment(name: string, base_url: string, token: string) {
  const r = await admin("POST", "/api/deployments", { name, base_url, token });
  expect(r.status, r.text).toBe(201);
  return r.json.slug as string;
}

beforeAll(async () => {
  adminSession = {
    cookie: await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password),
    origin: baseUrl,
  };
  remote = await startServer({
    DATA_DIR: tempDir("remote"),
    CREWS_DIR: FIXTURE_CREWS,
    CREW_TOKEN: REMOTE_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "30",
    WORKER_POLL_MS: "100",
    // The dashboard it calls back is on loopback.
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
    WEBHOOK_RETRY_SCHEDULE: "0,200,500,1s",
  });
  fake = await startFakeCrewAI({ token: FAKE_TOKEN, script: successScript(1500) });
});
afterAll(async () => {
  await remote?.kill();
  await fake?.close();
});

describe("deployments: settings and Test connection", () => {
  it("refuses a bad deployment with field errors, and never sends a token back", async () => {
    const bad = await admin("POST", "/api/deployments", {
      name: "",
      base_url: "ftp://x",
      token: "",
    });
    expectProblem(bad, 422);
    expect(bad.json.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "base_url",
      "name",
      "token",
    ]);
    await addDeployment("Secretive", `${remote.url}/api/crews/review`, "very-secret-token-value");
    const list = await admin("GET", "/api/deployments");
    expect(list.text).not.toContain("very-secret-token-value");
    expect(list.json.deployments.some((d: Json) => d.slug === "secretive")).toBe(true);
  });

  it("explains a wrong token, an unreachable host and a URL that is not this API", async () => {
    const ok = await addDeployment("Checked", `${remote.url}/api/crews/review`, REMOTE_TOKEN);
    expect((await admin("POST", `/api/deployments/${ok}/test`)).json).toMatchObject({
      ok: true,
      inputs: ["subject"],
    });
    const wrong = await addDeployment(
      "Wrong token",
      `${remote.url}/api/crews/review`,
      "nope-nope-nope",
    );
    const w = (await admin("POST", `/api/deployments/${wrong}/test`)).json;
    expect(w).toMatchObject({ ok: false, step: "health" });
    expect(w.reason).toMatch(/refused the token \(401\)/);
    const closed = await freePort();
    const down = await addDeployment("Down", `http://127.0.0.1:${closed}/api/crews/x`, "t");
    expect((await admin("POST", `/api/deployments/${down}/test`)).json.reason).toMatch(
      /Unreachable: cannot reach .*ECONNREFUSED/,
    );
    const elsewhere = await addDeployment("Elsewhere", `${remote.url}/docs/api`, REMOTE_TOKEN);
    expect((await admin("POST", `/api/deployments/${elsewhere}/test`)).json.ok).toBe(false);
  });

  it("guards against SSRF: addresses outside DEPLOYMENT_ALLOWED_NETWORKS are refused", async () => {
    const meta = await addDeployment("Metadata", "http://169.254.169.254/latest", "t");
    expect((await admin("POST", `/api/deployments/${meta}/test`)).json.reason).toMatch(
      /linkLocal address .*DEPLOYMENT_ALLOWED_NETWORKS/,
    );
  });
});

describe("deployments: the stored token cannot be sent elsewhere", () => {
  it("an organization token may list deployments but not add, change, test or remove them", async () => {
    const slug = await addDeployment("Org guarded", `${remote.url}/api/crews/review`, REMOTE_TOKEN);
    expect((await asOrg("GET", "/api/deployments")).status).toBe(200);
    const body = { name: "x", base_url: "http://127.0.0.1:9/", token: "t" };
    expectProblem(await asOrg("POST", "/api/deployments", body), 403);
    expectProblem(await asOrg("PATCH", `/api/deployments/${slug}`, { base_url: fake.url }), 403);
    expectProblem(await asOrg("POST", `/api/deployments/${slug}/test`), 403);
    expectProblem(await asOrg("DELETE", `/api/deployments/${slug}`), 403);
    // Nothing changed: the deployment still points at the remote.
    const listed = (await admin("GET", "/api/deployments")).json.deployments.find(
      (d: Json) => d.slug === slug,
    );
    expect(listed.base_url).toBe(`${remote.url}/api/crews/review`);
  });

  it("moving a deployment to another origin needs its token again (422), and stores nothing", async () => {
    const slug = await addDeployment("Moving", `${remote.url}/api/crews/review`, REMOTE_TOKEN);
    const fakeRequests = fake.requests;
    const moved = await admin("PATCH", `/api/deployments/${slug}`, {
      base_url: `${fake.url}/`,
      name: "Renamed too",
    });
    expectProblem(moved, 422);
    expect(moved.json.detail).toMatch(/token/);
    expect(moved.json.errors).toEqual([{ path: "token", message: expect.stringMatching(/token/) }]);
    // Neither the URL nor the name was written, and the fake never saw the remote's token.
    const after = (await admin("GET", "/api/deployments")).json.deployments.find(
      (d: Json) => d.slug === slug,
    );
    expect(after).toMatchObject({ name: "Moving", base_url: `${remote.url}/api/crews/review` });
    expect((await admin("POST", `/api/deployments/${slug}/test`)).json.ok).toBe(true);
    expect(fake.requests).toBe(fakeRequests);

    // Another path on the same origin keeps the token; a new origin with the token is fine.
    const samePlace = await admin("PATCH", `/api/deployments/${slug}`, {
      base_url: `${remote.url}/api/crews/review/`,
    });
    expect(samePlace.status, samePlace.text).toBe(200);
    const withToken = await admin("PATCH", `/api/deployments/${slug}`, {
      base_url: fake.url,
      token: FAKE_TOKEN,
    });
    expect(withToken.status, withToken.text).toBe(200);
    expect(withToken.json.base_url).toBe(fake.url);
  });
});

describe("a run on another Crewdeck: webhooks, review, completion", () => {
  it("mirrors the remote's timeline in order, reviews through it, and completes", async () => {
    const slug = await addDeployment(
      "Remote review",
      `${remote.url}/api/crews/review`,
      REMOTE_TOKEN,
    );
    const crew = crewClient(baseUrl, `@${slug}`, TEST_CREW_TOKEN);
    expect((await crew.health()).text).toBe("Healthy");
    // The remote Crewdeck's input_schema comes through as it answered it.
    expect((await crew.inputs()).json).toEqual({
      inputs: ["subject"],
      input_schema: {
        type: "object",
        properties: { subject: { type: "string", title: "Subject", "x-control": "text" } },
        required: ["subject"],
        "x-order": ["subject"],
      },
    });
    const missing = await crew.kickoff({ inputs: {} });
    expectProblem(missing, 422);
    expect(missing.json.detail).toMatch(/subject/);

    const id = await crew.start({ subject: "tides" });
    const paused = await crew.waitFor(id, (s) => s.status === "pending_human_input");
    expect(paused.pending_human_input.task_id).toBe("draft");
    // The mirrored run's /status keeps the contract the dashboard's client parses it with.
    expect(StatusResponseSchema.safeParse(paused).error?.issues).toBeUndefined();
    const steps = (await crew.events(id)).json.events as Json[];
    expect(steps.some((e) => e.type === "thought")).toBe(true);
    expect(steps.some((e) => e.type === "review_requested" && e.task_id === "draft")).toBe(true);

    for (const task_id of ["draft", "polish"]) {
      const s = await crew.waitFor(
        id,
        (x) => x.status === "pending_human_input" && x.pending_human_input.task_id === task_id,
      );
      const r = await crew.resume({
        execution_id: id,
        task_id,
        human_feedback: "Looks right.",
        is_approve: true,
      });
      expect(r.status, r.text).toBe(200);
      expect(s.status).toBe("pending_human_input");
    }
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.result).toMatch(/tides/i);
    expect(done.tasks.map((t: Json) => `${t.task_id}:${t.status}`)).toEqual([
      "draft:completed",
      "polish:completed",
    ]);

    // One timeline: every event once, in order, nothing from two sources twice.
    const events = (await crew.events(id)).json.events as Json[];
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const once = (type: string) =>
      events.filter((e) => e.type === type).map((e) => `${e.task_id}/${e.attempt}`);
    for (const type of ["task_completed", "review_requested", "review_submitted"])
      expect(new Set(once(type)).size).toBe(once(type).length);
    expect(events.filter((e) => e.type === "execution_completed")).toHaveLength(1);
    expect(once("task_completed").sort()).toEqual(["draft/1", "polish/1"]);

    // Local and remote runs in one list, with the deployment as a filter.
    const list = await admin("GET", `/api/runs?deployment=${slug}`);
    expect(list.json.runs.map((r: Json) => r.id)).toEqual([id]);
    const local = await admin("GET", "/api/runs?deployment=local&per_page=100");
    expect(local.json.runs.some((r: Json) => r.id === id)).toBe(false);
  });
});

describe("a CrewAI-style deployment that never calls back: polling only", () => {
  it("shows progress and the result from /status alone", async () => {
    fake.setScript(holdLastStep(successScript(1500)));
    const slug = await addDeployment("CrewAI fake", fake.url, FAKE_TOKEN);
    const crew = crewClient(baseUrl, `@${slug}`, TEST_CREW_TOKEN);
    const id = await crew.start({ topic: "otters" });
    expect(fake.kickoffs.at(-1)?.body.stepWebhookUrl).toMatch(
      new RegExp(`^${baseUrl}/api/hooks/${slug}/${id}/step\\?t=`),
    );
    await crew.waitFor(id, (s) => s.status === "running");
    fake.release();
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.result).toBe("Final answer about otters");
    const events = (await crew.events(id)).json.events as Json[];
    expect(events.some((e) => e.type === "thought" && /otters/.test(e.data.text))).toBe(true);
    expect(events.filter((e) => e.type === "task_completed").map((e) => e.task_id)).toEqual([
      "research",
      "write",
    ]);
    expect(events.at(-1)?.type).toBe("execution_completed");
  });

  it("shows a remote failure with its message", async () => {
    fake.setScript(failureScript(600));
    const crew = crewClient(baseUrl, "@crewai-fake", TEST_CREW_TOKEN);
    const id = await crew.start({ topic: "crash" });
    const failed = await crew.waitFor(id, (s) => s.status === "error");
    expect(failed.error).toMatch(/boom/);
  });

  it("a wrong token: the kickoff fails with the reason and leaves nothing behind", async () => {
    const slug = await addDeployment("CrewAI wrong token", fake.url, "not-the-token");
    const r = await crewClient(baseUrl, `@${slug}`, TEST_CREW_TOKEN).kickoff({
      inputs: { topic: "x" },
    });
    expectProblem(r, 502);
    expect(r.json.detail).toMatch(/refused our token \(401\)/);
    expect((await admin("GET", `/api/runs?deployment=${slug}`)).json.runs).toEqual([]);
  });
});

describe("webhook receivers", () => {
  let hookUrl: string;
  let id: string;
  beforeAll(async () => {
    fake.setScript(successScript(60_000)); // stays running: only our webhooks change it
    const crew = crewClient(baseUrl, "@crewai-fake", TEST_CREW_TOKEN);
    id = await crew.start({ topic: "hooks" });
    hookUrl = String(fake.kickoffs.at(-1)?.body.stepWebhookUrl);
  });
  const post = (url: string, body: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    });

  it("a wrong secret is 401; an unknown run or kind is 404", async () => {
    const wrong = await post(hookUrl.replace(/t=[^&]+/, "t=guess"), "{}");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain("hooks");
    expect((await post(hookUrl.replace("/step?", "/other?"), "{}")).status).toBe(404);
  });

  it("a replayed event is stored once", async () => {
    const body = JSON.stringify({ thought: "replayed thought", step: 7 });
    const headers = { "webhook-id": "msg_replay_1" };
    for (let i = 0; i < 3; i++) expect((await post(hookUrl, body, headers)).status).toBe(200);
    await post(hookUrl, JSON.stringify({ thought: "no id, same body" }));
    await post(hookUrl, JSON.stringify({ thought: "no id, same body" }));
    const events = (await crewClient(baseUrl, "@crewai-fake", TEST_CREW_TOKEN).events(id)).json
      .events as Json[];
    expect(events.filter((e) => e.data.payload?.thought === "replayed thought")).toHaveLength(1);
    expect(events.filter((e) => e.data.payload?.thought === "no id, same body")).toHaveLength(1);
  });

  it("with a signing secret set, an unsigned or wrongly signed webhook is 401", async () => {
    const secret = "whsec_c2lnbmluZy1zZWNyZXQtZm9yLXRlc3Rz";
    const r = await admin("POST", "/api/deployments", {
      name: "Signed",
      base_url: fake.url,
      token: FAKE_TOKEN,
      webhook_secret: secret,
    });
    expect(r.json.signs_webhooks).toBe(true);
    const signedRun = await crewClient(baseUrl, "@signed", TEST_CREW_TOKEN).start({ topic: "sig" });
    const url = String(fake.kickoffs.at(-1)?.body.taskWebhookUrl);
    expect(url).toContain(signedRun);
    const body = JSON.stringify({ description: "signed task", raw: "done" });
    expect((await post(url, body)).status).toBe(401);
    const forged = signatureHeaders({
      secret: "whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==",
      id: "msg_1",
      body,
    });
    expect((await post(url, body, forged)).status).toBe(401);
    const good = signatureHeaders({ secret, id: "msg_2", body });
    expect((await post(url, body, good)).status).toBe(200);
  });

  it("a body over the limit is 413", async () => {
    const r = await post(hookUrl, JSON.stringify({ big: "x".repeat(300 * 1024) }));
    expect(r.status).toBe(413);
  });
});
