import { afterAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json, until } from "../support/api";
import {
  dbMode,
  FIXTURE_CREWS,
  freshPostgresDatabase,
  type Proc,
  startServer,
  TEST_ADMIN,
  TEST_CREW_TOKEN,
  tempDir,
  tokenCli,
} from "../support/harness";
import { addPerson, adminHeaders } from "../support/people";
import { type Exposition, parseExposition, sampleValue } from "../support/prometheus-text";
import { startReceiver } from "../support/receiver";

// GET /api/metrics: Prometheus' text format, for an organization token or an administrator, or
// for any caller from METRICS_ALLOWED_NETWORKS. The figures move as runs, reviews and webhooks do.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const procs: Proc[] = [];
const rx = await startReceiver();
afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  await rx.close();
});

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Exposition> {
  const r = await call(url, "GET", "/api/metrics", { headers });
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(r.text);
}
const asOrg = { authorization: `Bearer ${TEST_CREW_TOKEN}` };

describe("GET /api/metrics access", () => {
  it("401 without a credential, 403 for a token or session that may not manage", async () => {
    expectProblem(await call(baseUrl, "GET", "/api/metrics"), 401);
    expectProblem(await call(baseUrl, "GET", "/api/metrics", { token: "nope" }), 401);
    const { email, password } = await addPerson(baseUrl, {
      email: "metrics-viewer@example.com",
      role: "viewer",
    });
    expect(password).toBeTruthy();
    const userToken = (await tokenCli(["create", "--user", email], serverEnv)).token as string;
    expectProblem(await call(baseUrl, "GET", "/api/metrics", { token: userToken }), 403);
  });

  it("an organization token or an administrator's session may scrape", async () => {
    const e = await scrape(baseUrl, asOrg);
    expect(e.types.get("crewdeck_runs_finished_total")).toBe("counter");
    expect(e.types.get("crewdeck_task_duration_seconds")).toBe("histogram");
    expect(e.types.get("crewdeck_review_duration_seconds")).toBe("histogram");
    expect(e.types.get("crewdeck_queue_depth")).toBe("gauge");
    expect(e.types.get("crewdeck_queue_oldest_age_seconds")).toBe("gauge");
    expect(e.types.get("crewdeck_webhook_deliveries_total")).toBe("counter");
    expect(e.types.get("crewdeck_llm_tokens_total")).toBe("counter");
    expect(e.types.get("crewdeck_llm_cost_usd_total")).toBe("counter");
    expect(e.types.get("crewdeck_lease_takeovers_total")).toBe("counter");
    await scrape(baseUrl, await adminHeaders(baseUrl));
  });
});

describe("the figures move with the work", () => {
  it("runs, tasks, tokens, webhooks, reviews and stops are counted", async () => {
    const before = await scrape(baseUrl, asOrg);

    // A two-task run with a task webhook (one delivery per task).
    const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);
    const k = await brief.kickoff({
      inputs: { topic: "otters", audience: "kids" },
      taskWebhookUrl: rx.url("/metrics-task"),
    });
    expect(k.status, k.text).toBe(200);
    await brief.waitFor(k.json.kickoff_id, (s: Json) => s.status === "completed");

    // A reviewed run: two reviews decided.
    const review = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const id = await review.start({ subject: "metrics" });
    for (const task of ["draft", "polish"]) {
      await review.waitFor(
        id,
        (s: Json) => s.status === "pending_human_input" && s.pending_human_input?.task_id === task,
      );
      const r = await review.resume({
        execution_id: id,
        task_id: task,
        human_feedback: "Fine.",
        is_approve: true,
      });
      expect(r.status, r.text).toBe(200);
    }
    await review.waitFor(id, (s: Json) => s.status === "completed");

    // A run stopped while it waits for review: cancelled.
    const stopped = await review.start({ subject: "stopping" });
    await review.waitFor(stopped, (s: Json) => s.status === "pending_human_input");
    expect((await review.stop(stopped)).status).toBe(200);

    const delta = (e: Exposition, name: string, labels: Record<string, string> = {}) =>
      sampleValue(e, name, labels) - sampleValue(before, name, labels);
    // Deliveries are made after the run's end: wait for the two task webhooks to be counted.
    const after = await until(
      "the task webhooks to be counted",
      () => scrape(baseUrl, asOrg),
      (e) =>
        delta(e, "crewdeck_webhook_deliveries_total", { kind: "task", outcome: "delivered" }) >= 2,
    );
    expect(rx.delivered().filter((r) => r.path === "/metrics-task")).toHaveLength(2);

    expect(delta(after, "crewdeck_runs_started_total", { crew: "brief" })).toBe(1);
    expect(
      delta(after, "crewdeck_runs_finished_total", { crew: "brief", outcome: "completed" }),
    ).toBe(1);
    expect(
      delta(after, "crewdeck_runs_finished_total", { crew: "review", outcome: "completed" }),
    ).toBe(1);
    expect(
      delta(after, "crewdeck_runs_finished_total", { crew: "review", outcome: "cancelled" }),
    ).toBe(1);
    expect(
      delta(after, "crewdeck_task_duration_seconds_count", { crew: "brief", outcome: "completed" }),
    ).toBe(2);
    // Each task's duration is under +Inf, and the histogram's buckets are cumulative.
    expect(
      delta(after, "crewdeck_task_duration_seconds_bucket", {
        crew: "brief",
        outcome: "completed",
        le: "+Inf",
      }),
    ).toBe(2);
    // Two reviews approved in the reviewed run; the stopped run's open review closed with it.
    expect(
      delta(after, "crewdeck_review_duration_seconds_count", { crew: "review", kind: "output" }),
    ).toBe(3);
    // The offline model counts tokens (and costs nothing).
    expect(
      delta(after, "crewdeck_llm_tokens_total", { crew: "brief", type: "input" }),
    ).toBeGreaterThan(0);
    expect(
      delta(after, "crewdeck_llm_tokens_total", { crew: "brief", type: "output" }),
    ).toBeGreaterThan(0);
    expect(sampleValue(after, "crewdeck_llm_cost_usd_total", { crew: "brief" })).toBe(0);
    // (The queue gauges are checked on a server of the test's own, below: other files' runs may
    // still be waiting on this one.)
  });
});

describe("METRICS_ALLOWED_NETWORKS and the queue gauges", () => {
  it("a caller from an allowed network scrapes without a token; queued runs show as depth and age", async () => {
    const env = {
      CREWS_DIR: FIXTURE_CREWS,
      CREW_TOKEN: TEST_CREW_TOKEN,
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      DATA_DIR: tempDir("prometheus"),
      // No worker: what is started stays queued.
      RUN_WORKER: "false",
      METRICS_ALLOWED_NETWORKS: "127.0.0.0/8",
      ...(dbMode() === "postgres"
        ? { DATABASE_URL: (await freshPostgresDatabase()) as string }
        : {}),
    };
    const web = await startServer(env);
    procs.push(web);
    const brief = crewClient(web.url, "brief", TEST_CREW_TOKEN);
    expect(sampleValue(await scrape(web.url), "crewdeck_queue_depth")).toBe(0);
    await brief.start({ topic: "a", audience: "b" });
    await brief.start({ topic: "c", audience: "d" });
    const e = await scrape(web.url);
    expect(sampleValue(e, "crewdeck_queue_depth")).toBe(2);
    expect(sampleValue(e, "crewdeck_executions", { status: "queued" })).toBe(2);
    expect(sampleValue(e, "crewdeck_queue_oldest_age_seconds")).toBeGreaterThan(0);
  });
});
