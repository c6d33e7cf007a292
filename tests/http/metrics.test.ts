import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_ADMIN, TEST_CREW_TOKEN, tokenCli } from "../support/harness";
import { signIn } from "../support/session";

// Tokens, cost, timing and who started or stopped a run: on /status, the runs list and stats.
const baseUrl = inject("baseUrl");
const serverEnv = inject("serverEnv");
const label = `metrics-${Date.now()}`;
let labelled: string;

type Usage = { input_tokens: number; output_tokens: number; total_tokens: number };
const sumOf = (usages: Usage[]) =>
  usages.reduce(
    (a, u) => ({
      input_tokens: a.input_tokens + u.input_tokens,
      output_tokens: a.output_tokens + u.output_tokens,
      total_tokens: a.total_tokens + u.total_tokens,
    }),
    { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  );

beforeAll(async () => {
  labelled = (await tokenCli(["create", "--org", "--label", label], serverEnv)).token as string;
});

describe("/status: tokens, cost, inputs, meta, started_by", () => {
  it("counts tokens per task and in total on the offline model, at no cost", async () => {
    const crew = crewClient(baseUrl, "three-step", labelled);
    const r = await crew.kickoff({ inputs: { job: "count the walruses" }, meta: { team: "zoo" } });
    expect(r.status, r.text).toBe(200);
    const id = r.json.kickoff_id;
    const s = await crew.waitFor(id, (x: Json) => x.status === "completed");

    expect(s.tasks).toHaveLength(3);
    for (const t of s.tasks) {
      expect(t.token_usage.input_tokens, t.task_id).toBeGreaterThan(0);
      expect(t.token_usage.output_tokens, t.task_id).toBeGreaterThan(0);
      expect(t.token_usage.total_tokens).toBe(
        t.token_usage.input_tokens + t.token_usage.output_tokens,
      );
    }
    expect(s.token_usage).toEqual(sumOf(s.tasks.map((t: Json) => t.token_usage)));
    expect(s.cost).toEqual({ usd: 0, estimated: true, models: ["offline"], unpriced_models: [] });
    expect(s.inputs).toEqual({ job: "count the walruses" });
    expect(s.meta).toEqual({ team: "zoo" });
    expect(s.started_by).toEqual({ via: "api", name: label });
    expect(s.stopped_by).toBeNull();
    expect(s.stopped_at).toBeNull();
    expect(s.timing.review_wait_seconds).toBe(0);
    expect(s.timing.working_seconds).toBeCloseTo(s.execution_time, 1);

    // The step events that end an LLM call carry its usage and model; they add up to the total.
    const events = (await crew.events(id)).json.events as Json[];
    const steps = events.filter((e) =>
      ["thought", "tool_call", "tool_result", "answer"].includes(e.type),
    );
    const ends = steps.filter((e) => e.data.usage);
    expect(ends.length).toBeGreaterThan(0);
    expect(steps.filter((e) => e.type === "tool_result" && e.data.usage)).toEqual([]);
    for (const e of ends) {
      expect(["answer", "tool_call"]).toContain(e.type);
      expect(e.data.model).toBe("offline");
    }
    // Each task's answer ends its last call.
    expect(ends.filter((e) => e.type === "answer")).toHaveLength(3);
    const fromSteps = ends.reduce((n, e) => n + e.data.usage.input_tokens, 0);
    expect(fromSteps).toBe(s.token_usage.input_tokens);
  });

  it("a dashboard kickoff is started_by the signed-in person", async () => {
    const cookie = await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const r = await call(baseUrl, "POST", "/api/crews/no-inputs/kickoff", {
      headers: { cookie, origin: baseUrl },
      body: { inputs: {} },
    });
    expect(r.status, r.text).toBe(200);
    const s = await crewClient(baseUrl, "no-inputs", TEST_CREW_TOKEN).waitFor(
      r.json.kickoff_id,
      () => true,
    );
    expect(s.started_by).toEqual({ via: "dashboard", name: TEST_ADMIN.email });
  });

  it("a stop records who stopped it and when", async () => {
    const crew = crewClient(baseUrl, "review", labelled);
    const id = await crew.start({ subject: "beavers" });
    await crew.waitFor(id, (x: Json) => x.status === "pending_human_input");
    const stop = await crew.stop(id);
    expect(stop.status, stop.text).toBe(200);
    const s = (await crew.status(id)).json;
    expect(s.status).toBe("cancelled");
    expect(s.stopped_by).toMatch(/^org-token:/);
    expect(Date.parse(s.stopped_at)).not.toBeNaN();
    // Tokens used before the stop still count.
    expect(s.tasks[0].token_usage.total_tokens).toBeGreaterThan(0);
    expect(s.token_usage.total_tokens).toBe(s.tasks[0].token_usage.total_tokens);
    expect(s.timing.review_wait_seconds).toBeGreaterThan(0);
  });

  it("timing splits working time from the review wait", async () => {
    const crew = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "herons" });
    for (const task of ["draft", "polish"]) {
      await crew.waitFor(
        id,
        (x: Json) => x.status === "pending_human_input" && x.pending_human_input.task_id === task,
      );
      const r = await crew.resume({
        execution_id: id,
        task_id: task,
        human_feedback: "",
        is_approve: true,
      });
      expect(r.status, r.text).toBe(200);
    }
    const s = await crew.waitFor(id, (x: Json) => x.status === "completed");
    // The waits, from the event log: each review request to its answer.
    const events = (await crew.events(id)).json.events as Json[];
    const at = (type: string, task: string) =>
      Date.parse(events.find((e) => e.type === type && e.task_id === task).created_at);
    const waited =
      (at("review_submitted", "draft") - at("review_requested", "draft")) / 1000 +
      (at("review_submitted", "polish") - at("review_requested", "polish")) / 1000;
    expect(s.timing.review_wait_seconds).toBeGreaterThan(0);
    expect(Math.abs(s.timing.review_wait_seconds - waited)).toBeLessThan(0.1);
    expect(s.timing.working_seconds + s.timing.review_wait_seconds).toBeCloseTo(
      s.execution_time,
      1,
    );
    expect(s.tasks.map((t: Json) => t.token_usage.total_tokens > 0)).toEqual([true, true]);
  });
});

describe("a task's tokens over its attempts", () => {
  it("a send-back's second attempt adds to the task's tokens", async () => {
    const crew = crewClient(baseUrl, "review", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "voles" });
    const first = await crew.waitFor(
      id,
      (x: Json) => x.status === "pending_human_input" && x.pending_human_input.attempt === 1,
    );
    const once = first.tasks[0].token_usage.total_tokens;
    expect(once).toBeGreaterThan(0);
    const r = await crew.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "Shorter.",
      is_approve: false,
    });
    expect(r.status, r.text).toBe(200);
    const second = await crew.waitFor(
      id,
      (x: Json) => x.status === "pending_human_input" && x.pending_human_input.attempt === 2,
    );
    const events = (await crew.events(id)).json.events as Json[];
    const byAttempt = (n: number) =>
      events
        .filter((e) => e.type === "answer" && e.attempt === n && e.data.usage)
        .reduce((t, e) => t + e.data.usage.input_tokens + e.data.usage.output_tokens, 0);
    expect(byAttempt(1)).toBe(once);
    expect(second.tasks[0].token_usage.total_tokens).toBe(byAttempt(1) + byAttempt(2));
    expect(second.token_usage.total_tokens).toBe(second.tasks[0].token_usage.total_tokens);
    await crew.stop(id);
  });
});

describe("GET /api/runs: the new fields and filters", () => {
  it("rows carry tokens, cost, models, duration, meta and started_by", async () => {
    const crew = crewClient(baseUrl, "no-inputs", labelled);
    const marker = `m${Date.now()}`;
    const r = await crew.kickoff({ inputs: {}, meta: { batch: marker, n: 3 } });
    const id = r.json.kickoff_id;
    const s = await crew.waitFor(id, (x: Json) => x.status === "completed");

    const list = await call(baseUrl, "GET", `/api/runs?meta=batch:${marker}`, { token: labelled });
    expect(list.status, list.text).toBe(200);
    expect(list.json.runs).toHaveLength(1);
    const row = list.json.runs[0];
    expect(row).toMatchObject({
      id,
      token_usage: s.token_usage,
      cost_usd: 0,
      models: ["offline"],
      meta: { batch: marker, n: 3 },
      started_by: { via: "api", name: label },
      review_wait_seconds: 0,
    });
    expect(row.duration_seconds).toBeGreaterThan(0);

    // Every meta filter must match; values compare as text.
    const both = await call(baseUrl, "GET", `/api/runs?meta=batch:${marker}&meta=n:3`, {
      token: labelled,
    });
    expect(both.json.runs.map((x: Json) => x.id)).toEqual([id]);
    const neither = await call(baseUrl, "GET", `/api/runs?meta=batch:${marker}&meta=n:4`, {
      token: labelled,
    });
    expect(neither.json.runs).toEqual([]);
    expectProblem(await call(baseUrl, "GET", "/api/runs?meta=nocolon", { token: labelled }), 400);
  });

  it("q finds a run by crew and by error text; started_by filters by person", async () => {
    const failing = crewClient(baseUrl, "failing-model", TEST_CREW_TOKEN);
    const id = await failing.start({});
    const s = await failing.waitFor(id, (x: Json) => x.status === "error");
    const word = (s.error as string).split(/\W+/).find((w) => w.length > 5) as string;
    const byError = await call(baseUrl, "GET", `/api/runs?q=${encodeURIComponent(word)}`, {
      token: TEST_CREW_TOKEN,
    });
    expect(byError.json.runs.map((x: Json) => x.id)).toContain(id);
    const byCrew = await call(baseUrl, "GET", "/api/runs?q=failing-mod&per_page=100", {
      token: TEST_CREW_TOKEN,
    });
    expect(byCrew.json.runs.map((x: Json) => x.id)).toContain(id);

    const mine = await call(baseUrl, "GET", `/api/runs?started_by=${TEST_ADMIN.email}`, {
      token: TEST_CREW_TOKEN,
    });
    expect(mine.json.runs.length).toBeGreaterThan(0);
    expect(
      mine.json.runs.every((x: Json) => x.started_by?.via === "dashboard" && x.started_by.name),
    ).toBe(true);
    expectProblem(
      await call(baseUrl, "GET", "/api/runs?started_by=me", { token: TEST_CREW_TOKEN }),
      422,
    );
  });

  it("from after to is a 422 that says so", async () => {
    const r = await call(baseUrl, "GET", "/api/runs?from=2026-02-10&to=2026-02-01", {
      token: TEST_CREW_TOKEN,
    });
    expectProblem(r, 422);
    expect(r.json.detail).toMatch(/from .* after to/);
  });
});

describe("GET /api/runs/stats", () => {
  it("adds percentiles, tokens, cost and totals over ?days=", async () => {
    const r = await call(baseUrl, "GET", "/api/runs/stats?days=3", { token: TEST_CREW_TOKEN });
    expect(r.status, r.text).toBe(200);
    expect(r.json.days).toHaveLength(3);
    expect(r.json.window_days).toBe(3);
    const today = r.json.days.at(-1);
    expect(today.p50_seconds).toBeGreaterThan(0);
    expect(today.p95_seconds).toBeGreaterThanOrEqual(today.p50_seconds);
    expect(today.review_wait_p50_seconds).toBeGreaterThan(0);
    expect(today.input_tokens).toBeGreaterThan(0);
    expect(today.cost_usd).toBe(0);
    const t = r.json.totals;
    const days = r.json.days as Json[];
    const sum = (k: string) => days.reduce((n, d) => n + d[k], 0);
    expect(t.completed).toBe(sum("completed"));
    expect(t.failed).toBe(sum("error"));
    expect(t.stopped).toBe(sum("cancelled"));
    expect(t.runs).toBe(t.completed + t.failed + t.stopped + sum("other"));
    expect(t.failed).toBeGreaterThan(0);
    expect(t.failure_rate).toBeCloseTo(t.failed / (t.completed + t.failed + t.stopped), 3);
    expect(t.input_tokens).toBe(sum("input_tokens"));
    expect(t.output_tokens).toBe(sum("output_tokens"));

    expect(
      (await call(baseUrl, "GET", "/api/runs/stats", { token: TEST_CREW_TOKEN })).json.days,
    ).toHaveLength(14);
    expectProblem(
      await call(baseUrl, "GET", "/api/runs/stats?days=91", { token: TEST_CREW_TOKEN }),
      400,
    );
    expectProblem(
      await call(baseUrl, "GET", "/api/runs/stats?days=0", { token: TEST_CREW_TOKEN }),
      400,
    );
  });
});

describe("model prices setting", () => {
  it("is for administrators; a saved price shows in the table in force", async () => {
    expectProblem(
      await call(baseUrl, "GET", "/api/settings/model-prices", { token: TEST_CREW_TOKEN }),
      403,
    );
    const cookie = await signIn(baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const headers = { cookie, origin: baseUrl };
    const put = await call(baseUrl, "PUT", "/api/settings/model-prices", {
      headers,
      body: { prices: { "openai/custom-model": { input: 1, output: 2 } } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.prices["openai/custom-model"]).toEqual({ input: 1, output: 2 });
    expect(put.json.prices["gpt-4o-mini"]).toBeDefined();
    const bad = await call(baseUrl, "PUT", "/api/settings/model-prices", {
      headers,
      body: { prices: { x: { input: -1, output: 2 } } },
    });
    expect([400, 422]).toContain(bad.status);
  });
});
