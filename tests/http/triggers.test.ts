import crypto from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// Triggers: someone else's system posts a signed webhook; its payload, mapped to the crew's
// inputs, starts a run. Signed here as GitHub and Standard Webhooks senders sign (HMAC-SHA256).
const baseUrl = inject("baseUrl");
const api = (method: string, path: string, body?: unknown) =>
  call(baseUrl, method, path, { token: TEST_CREW_TOKEN, body });
const done = (s: Json) => ["completed", "error", "cancelled"].includes(s.status);

async function createTrigger(crew: string, body: Record<string, unknown>) {
  const r = await api("POST", `/api/crews/${crew}/triggers`, body);
  expect(r.status, r.text).toBe(201);
  expect(r.headers.get("cache-control")).toBe("no-store");
  return r.json as Json;
}

/** A delivery as GitHub sends one: X-Hub-Signature-256 over the raw body, X-GitHub-Delivery. */
function github(
  trigger: Json,
  payload: unknown,
  opts: { delivery?: string; secret?: string } = {},
) {
  const body = JSON.stringify(payload);
  const mac = crypto
    .createHmac("sha256", opts.secret ?? trigger.secret)
    .update(body)
    .digest("hex");
  return call(baseUrl, "POST", `/api/triggers/${trigger.id}`, {
    body,
    headers: {
      "x-hub-signature-256": `sha256=${mac}`,
      "x-github-delivery": opts.delivery ?? crypto.randomUUID(),
      "x-github-event": "issues",
    },
  });
}

/** A delivery as a Standard Webhooks sender signs one, at `at` (unix seconds). */
function standard(trigger: Json, payload: unknown, at = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(payload);
  const id = `msg_${crypto.randomUUID()}`;
  const key = Buffer.from(String(trigger.secret).replace(/^whsec_/, ""), "base64");
  const sig = crypto.createHmac("sha256", key).update(`${id}.${at}.${body}`).digest("base64");
  return call(baseUrl, "POST", `/api/triggers/${trigger.id}`, {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(at),
      "webhook-signature": `v1,${sig}`,
    },
  });
}

const events = async (crew: string, id: string) =>
  (await api("GET", `/api/crews/${crew}/triggers/${id}/events`)).json.events as Json[];

const issue = (title: string, id = 7) => ({
  action: "opened",
  issue: { id, number: 42, title, labels: [{ name: "bug" }] },
  repository: { name: "widgets" },
});

describe("triggers", () => {
  it("a GitHub delivery starts a run with mapped inputs; bad signatures and replays start nothing", async () => {
    const t = await createTrigger("brief", {
      name: "Issue opened",
      signature: "github",
      mapping: { topic: "$.issue.title", audience: 'payload.repository.name + " maintainers"' },
    });
    expect(t.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(t.url).toMatch(new RegExp(`/api/triggers/${t.id}$`));
    // The secret is shown once: never in a later answer.
    const again = await api("GET", `/api/crews/brief/triggers/${t.id}`);
    expect(again.text).not.toContain(t.secret);
    expect((await api("GET", "/api/crews/brief/triggers")).text).not.toContain(t.secret);

    const delivery = crypto.randomUUID();
    const ok = await github(t, issue("Crash on start"), { delivery });
    expect(ok.status, ok.text).toBe(202);
    const run = await crewClient(baseUrl, "brief", TEST_CREW_TOKEN).waitFor(
      ok.json.kickoff_id,
      done,
    );
    expect(run.status).toBe("completed");
    expect(run.inputs).toEqual({ topic: "Crash on start", audience: "widgets maintainers" });
    expect(run.started_by).toEqual({ via: "trigger", name: "Issue opened", id: t.id });

    // The same delivery again (GitHub's "Redeliver"): the run it started, nothing new.
    const replay = await github(t, issue("Crash on start"), { delivery });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.json).toMatchObject({ kickoff_id: ok.json.kickoff_id, duplicate: true });

    const forged = await github(t, issue("Forged"), { secret: "not the secret" });
    expectProblem(forged, 401);
    expect(forged.json.detail).toContain("x-hub-signature-256");
    expect(forged.text).not.toContain(t.secret);
    const unsigned = await call(baseUrl, "POST", `/api/triggers/${t.id}`, { body: issue("x") });
    expectProblem(unsigned, 401);

    const log = await events("brief", t.id);
    expect(log.map((e) => [e.outcome, e.status_code])).toEqual([
      ["unauthorized", 401],
      ["unauthorized", 401],
      ["duplicate", 200],
      ["started", 202],
    ]);
    expect(log[3]).toMatchObject({ delivery_id: delivery, execution_id: ok.json.kickoff_id });
    const runs = await api("GET", "/api/runs?crew=brief&per_page=100");
    const byTrigger = (runs.json.runs as Json[]).filter((r) => r.started_by?.id === t.id);
    expect(byTrigger.map((r) => r.id)).toEqual([ok.json.kickoff_id]);
  });

  it("copies of one delivery at once start exactly one run", async () => {
    const t = await createTrigger("brief", {
      name: "Burst",
      signature: "github",
      mapping: { topic: "$.issue.title" },
      inputs: { audience: "everyone" },
    });
    const delivery = crypto.randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => github(t, issue("Same"), { delivery })),
    );
    const started = replies.filter((r) => r.status === 202);
    expect(started).toHaveLength(1);
    for (const r of replies) expect(r.json.kickoff_id).toBe(started[0]?.json.kickoff_id);
  });

  it("Standard Webhooks: a stale timestamp is refused; a payload failing the inputs is a 422 in the log", async () => {
    const t = await createTrigger("typed-inputs", {
      name: "Form sent",
      mapping: { topic: "$.form.topic", words: "$.form.words", due: "$.form.due" },
      inputs: { audience: "readers" },
    });
    expect(t.secret).toMatch(/^whsec_/);
    const stale = await standard(t, { form: { topic: "x" } }, Math.floor(Date.now() / 1000) - 600);
    expectProblem(stale, 401);
    expect(stale.json.detail).toMatch(/timestamp/i);

    const bad = await standard(t, { form: { topic: "Tides", words: "many", due: "2026-12-01" } });
    expectProblem(bad, 422);
    expect(bad.json.errors.map((e: Json) => e.path)).toContain("inputs.words");
    const good = await standard(t, { form: { topic: "Tides", words: 50, due: "2026-12-01" } });
    expect(good.status, good.text).toBe(202);

    const log = await events("typed-inputs", t.id);
    expect(log.map((e) => e.outcome)).toEqual(["started", "invalid", "unauthorized"]);
    expect(log[1].errors.map((e: Json) => e.path)).toContain("inputs.words");
    expect(log[1].status_code).toBe(422);
  });

  it("a concurrency key from the payload: reject refuses a second run for the same issue", async () => {
    const t = await createTrigger("review", {
      name: "Triage",
      signature: "shared",
      mapping: { subject: "$.issue.title" },
      concurrency: { key: "$.issue.id", policy: "reject" },
    });
    const send = (payload: unknown) =>
      call(baseUrl, "POST", `/api/triggers/${t.id}`, {
        body: payload,
        headers: { authorization: `Bearer ${t.secret}`, "idempotency-key": crypto.randomUUID() },
      });
    const first = await send(issue("One", 901));
    expect(first.status, first.text).toBe(202);
    const second = await send(issue("One, edited", 901));
    expectProblem(second, 409);
    expect(second.json.detail).toContain(first.json.kickoff_id);
    const other = await send(issue("Two", 902));
    expect(other.status, other.text).toBe(202);
    const log = await events("review", t.id);
    expect(log.map((e) => e.outcome)).toEqual(["started", "refused", "started"]);
    // The sender's credentials never reach a mapping, so never a run's inputs.
    const leaky = await createTrigger("review", {
      name: "Leaky",
      signature: "shared",
      mapping: { subject: "headers.authorization" },
    });
    const leak = await call(baseUrl, "POST", `/api/triggers/${leaky.id}`, {
      body: issue("x"),
      headers: { authorization: `Bearer ${leaky.secret}` },
    });
    expectProblem(leak, 422);
    expect(leak.json.errors[0].path).toBe("mapping.subject");
    expect(leak.text).not.toContain(leaky.secret);
    const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    await Promise.all([review.stop(first.json.kickoff_id), review.stop(other.json.kickoff_id)]);
  });

  it("refuses a mapping that does not parse or names no input; paused triggers start nothing", async () => {
    const bad = await api("POST", "/api/crews/brief/triggers", {
      name: "Bad",
      mapping: { topic: "$.issue[", nope: "$.x" },
    });
    expectProblem(bad, 422);
    expect(bad.json.errors.map((e: Json) => e.path).sort()).toEqual([
      "mapping.nope",
      "mapping.topic",
    ]);
    const t = await createTrigger("brief", {
      name: "Paused",
      signature: "github",
      mapping: { topic: "$.issue.title" },
      inputs: { audience: "x" },
      paused: true,
    });
    expectProblem(await github(t, issue("x")), 409);
    expectProblem(await call(baseUrl, "POST", `/api/triggers/${crypto.randomUUID()}`, {}), 404);
    // A rotated secret: the old one stops working at once.
    const rotated = await api("POST", `/api/crews/brief/triggers/${t.id}/secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.secret).not.toBe(t.secret);
    expectProblem(await github({ ...t, secret: t.secret }, issue("x")), 401);
  });

  it("rate-limits each trigger: past its deliveries a minute, 429 with Retry-After, logged", async () => {
    const t = await createTrigger("brief", {
      name: "Chatty",
      signature: "github",
      mapping: { topic: "$.issue.title" },
      paused: false,
    });
    // Without an audience each delivery is refused (422) and starts nothing; each still counts.
    // The limit is 10 a minute (the suite's setting): within 21, one lands past it whichever
    // minute they straddle.
    let limited: Awaited<ReturnType<typeof github>> | undefined;
    for (let i = 0; i < 21 && !limited; i++) {
      const r = await github(t, issue(`#${i}`));
      if (r.status === 429) limited = r;
      else expect(r.status, r.text).toBe(422);
    }
    if (!limited) throw new Error("no delivery was rate-limited");
    expectProblem(limited, 429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await events("brief", t.id))[0]).toMatchObject({
      outcome: "limited",
      status_code: 429,
    });
  });
});
