import { afterEach, describe, expect, it, vi } from "vitest";
import { StatusResponseSchema } from "@/lib/contract/status";
import { DEFAULT_MODEL_PRICES } from "@/lib/run-model/pricing";
import type { ExecutionSummary } from "@/lib/runs/get-execution";
import { statusJson, toStatusResponse } from "@/lib/runs/status-view";

const base: ExecutionSummary = {
  id: "0b5b2b8e-8f0a-4c47-9d39-2b1c8f3f6a10",
  crew: "@remote",
  status: "running",
  owner_user_id: null,
  tasks: [],
  current_task: null,
  pending_human_input: null,
  open_reviews: [],
  last_step: null,
  result: null,
  error: null,
  created_at: new Date("2026-01-01T00:00:00Z"),
  updated_at: new Date("2026-01-01T00:01:00Z"),
  started_at: new Date("2026-01-01T00:00:00Z"),
  finished_at: new Date("2026-01-01T00:10:00Z"),
  inputs: { b: 2, a: "x" },
  meta: null,
  token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
  started_via: null,
  started_by_name: null,
  stopped_by: null,
  stopped_at: null,
  review_wait_seconds: 120,
  deployment_id: "7d7e3a57-4b8e-4f53-9a8b-1a4d3f0a9e11",
  parent_id: null,
  flow: null,
  origin_id: null,
  origin_kind: null,
  concurrency_key: null,
  schedule_id: null,
  trigger_id: null,
  nested_reviews: [],
  input_order: ["a", "b"],
};

describe("toStatusResponse", () => {
  it("a remote deployment's run fits the schema, with zeros for what is unknown", () => {
    const s = toStatusResponse({ ...base, last_step: { type: "task", text: "done" } });
    expect(StatusResponseSchema.safeParse(s).success).toBe(true);
    expect(s.last_step).toMatchObject({ type: "thought", text: "done" });
    expect(s.started_by).toEqual({ via: "deployment", name: null });
    expect(s.cost).toEqual({ usd: 0, estimated: true, models: [], unpriced_models: [] });
    expect(s.meta).toEqual({});
  });

  it("timing subtracts the review wait; inputs keep the crew's order", () => {
    const s = toStatusResponse({ ...base, deployment_id: null }, DEFAULT_MODEL_PRICES);
    expect(s.timing).toEqual({ working_seconds: 480, review_wait_seconds: 120 });
    expect(Object.keys(s.inputs)).toEqual(["a", "b"]);
    expect(s.started_by).toBeNull();
  });

  it("says who started a local run: a person from the dashboard, or a token by its label", () => {
    const local = { ...base, deployment_id: null };
    const via = (started_via: ExecutionSummary["started_via"], started_by_name: string | null) =>
      toStatusResponse({ ...local, started_via, started_by_name }).started_by;
    expect(via("dashboard", "ada@example.com")).toEqual({
      via: "dashboard",
      name: "ada@example.com",
    });
    expect(via("api", "nightly job")).toEqual({ via: "api", name: "nightly job" });
    // Runs from before it was recorded say nothing, rather than a name without a way.
    expect(via(null, "x")).toBeNull();
  });

  it("costs each task's tokens at its model's price", () => {
    const task = {
      task_id: "t",
      name: "T",
      agent: "a",
      human_input: false,
      status: "completed" as const,
      attempts: 2,
      output: "x",
      started_at: null,
      finished_at: null,
      execution_time: 1,
      token_usage: { input_tokens: 1_000_000, output_tokens: 1_000_000, total_tokens: 2_000_000 },
      models: ["openai/gpt-4o-mini"],
    };
    const s = toStatusResponse({ ...base, tasks: [task] }, DEFAULT_MODEL_PRICES);
    expect(s.cost.usd).toBeCloseTo(0.75, 6);
    expect(s.tasks[0]?.token_usage.total_tokens).toBe(2_000_000);
  });
});

describe("statusJson, the polled body kept per cached row", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const finished: ExecutionSummary = { ...base, status: "completed", result: "Done." };

  it("a finished run: the same JSON as toStatusResponse, serialised once", () => {
    const prices = { ...DEFAULT_MODEL_PRICES };
    const first = statusJson(finished, prices);
    expect(first).toBe(JSON.stringify(toStatusResponse(finished, prices)));
    expect(statusJson(finished, prices)).toBe(first);
  });

  it("a running run: the clock's fields count up per poll, every field in its place", () => {
    const running: ExecutionSummary = { ...base, finished_at: null, review_wait_seconds: 0 };
    const prices = { ...DEFAULT_MODEL_PRICES };
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:30Z"));
    const at30 = JSON.parse(statusJson(running, prices));
    vi.setSystemTime(new Date("2026-01-01T00:00:45Z"));
    const text = statusJson(running, prices);
    expect(at30.execution_time).toBe(30);
    expect(JSON.parse(text).execution_time).toBe(45);
    expect(JSON.parse(text).timing.working_seconds).toBe(45);
    expect(text).toBe(JSON.stringify(toStatusResponse(running, prices)));
  });

  it("a changed price table makes the body again", () => {
    const task = {
      task_id: "t",
      name: "t",
      agent: "a",
      status: "completed" as const,
      attempts: 1,
      output: "x",
      models: ["gpt-4o"],
      token_usage: { input_tokens: 1_000_000, output_tokens: 0, total_tokens: 1_000_000 },
    };
    const row: ExecutionSummary = { ...finished, tasks: [task] as ExecutionSummary["tasks"] };
    const cheap = { ...DEFAULT_MODEL_PRICES, "gpt-4o": { input: 1, output: 1 } };
    const dear = { ...DEFAULT_MODEL_PRICES, "gpt-4o": { input: 3, output: 3 } };
    expect(JSON.parse(statusJson(row, cheap)).cost.usd).toBeCloseTo(1, 6);
    expect(JSON.parse(statusJson(row, dear)).cost.usd).toBeCloseTo(3, 6);
  });
});

// What a CrewAI client reads of /status (crewai's own client, Semantic Kernel's plugin): `state`,
// `result` and the completed run's `crew_output`; and what the dashboard and webhooks read beside.
describe("toStatusResponse, as clients read it", () => {
  const task = (
    task_id: string,
    status: ExecutionSummary["tasks"][number]["status"],
    output: string | null,
  ) => ({
    task_id,
    name: task_id.toUpperCase(),
    agent: `${task_id}-agent`,
    human_input: false,
    status,
    attempts: 1,
    output,
    started_at: null,
    finished_at: null,
    execution_time: output === null ? null : 2,
  });
  const own: ExecutionSummary = { ...base, crew: "brief", deployment_id: null };
  const now = new Date("2026-01-01T00:20:00Z");

  it("a completed run: the result, and crew_output with each task's output ('' for none)", () => {
    const tasks = [task("a", "completed", "A's text"), task("b", "completed", null)];
    const s = toStatusResponse({ ...own, status: "completed", result: "Final.", tasks });
    expect(s.state).toBe("SUCCESS");
    expect(s.result).toBe("Final.");
    expect(s.crew_output).toEqual({
      output: "Final.",
      tasks: [
        { task_id: "a", output: "A's text", agent: "a-agent", execution_time: 2 },
        { task_id: "b", output: "", agent: "b-agent", execution_time: null },
      ],
    });
    expect(s.progress).toEqual({ completed_tasks: 2, total_tasks: 2 });
    const noResult = toStatusResponse({ ...own, status: "completed", result: null, tasks });
    expect(noResult.crew_output?.output).toBe("");
  });

  it("a run not yet completed has no crew_output; its running and waiting tasks are in progress", () => {
    const tasks = [
      task("a", "completed", "x"),
      task("b", "running", null),
      task("c", "pending_human_input", "draft"),
      task("d", "pending", null),
    ];
    const s = toStatusResponse({ ...own, status: "running", tasks, finished_at: null }, {}, now);
    expect(s.crew_output).toBeNull();
    expect(s.state).toBe("RUNNING");
    expect(s.in_progress).toEqual(["b", "c"]);
    expect(s.progress).toEqual({ completed_tasks: 1, total_tasks: 4 });
  });

  it("a failed or stopped run's result says why it ended, with a default when nothing was kept", () => {
    const failed = { ...own, status: "error" as const, result: "partial" };
    expect(toStatusResponse({ ...failed, error: "Model refused." }).result).toBe("Model refused.");
    expect(toStatusResponse(failed).result).toBe("Failed.");
    expect(toStatusResponse(failed).state).toBe("FAILED");
    const stopped = { ...own, status: "cancelled" as const };
    expect(toStatusResponse(stopped).result).toBe("Stopped on request.");
    expect(toStatusResponse({ ...stopped, error: "Deadline passed." }).result).toBe(
      "Deadline passed.",
    );
    const at = new Date("2026-01-01T00:05:00Z");
    const s = toStatusResponse({ ...stopped, stopped_by: "ada@example.com", stopped_at: at });
    expect([s.stopped_by, s.stopped_at]).toEqual(["ada@example.com", at.toISOString()]);
    expect(toStatusResponse(own).stopped_at).toBeNull();
  });

  it("pending_human_input: the review waiting, with defaults for what an older row lacks", () => {
    const p = { task_id: "b", output: "draft", attempt: 2, requested_at: "2026-01-01T00:03:00Z" };
    const waiting = { ...own, status: "pending_human_input" as const, finished_at: null };
    expect(toStatusResponse({ ...waiting, pending_human_input: p }).pending_human_input).toEqual(p);
    expect(
      toStatusResponse({ ...waiting, pending_human_input: { task_id: "b" } }).pending_human_input,
    ).toEqual({ task_id: "b", output: "", attempt: 1, requested_at: own.updated_at.toISOString() });
    for (const bad of [{ task_id: "" }, { task_id: 7 }, { output: "x" }, null])
      expect(toStatusResponse({ ...waiting, pending_human_input: bad }).pending_human_input).toBe(
        null,
      );
  });

  it("an open review's wait counts up into the timing, and it is described", () => {
    const p = { task_id: "b", output: "draft", attempt: 1, requested_at: "2026-01-01T00:15:00Z" };
    const waiting: ExecutionSummary = {
      ...own,
      status: "pending_human_input",
      pending_human_input: p,
      finished_at: null,
      review_wait_seconds: 60,
    };
    const s = toStatusResponse(waiting, {}, now);
    // 60 s waited before, 300 s on this review: 20 min running, 6 of them waiting.
    expect(s.timing).toEqual({ working_seconds: 840, review_wait_seconds: 360 });
    expect(s.execution_time).toBe(1200);
    expect(s.pending_human_inputs).toMatchObject([{ task_id: "b", output: "draft", attempt: 1 }]);
    const notStarted = toStatusResponse({ ...waiting, started_at: null }, {}, now);
    expect(notStarted.timing.working_seconds).toBeNull();
  });

  it("inputs: the crew's order first (a missing one left out, a false kept), then the rest", () => {
    const s = toStatusResponse({
      ...own,
      inputs: { extra: 1, b: false, a: "x" },
      input_order: ["a", "gone", "b"],
    });
    expect(Object.entries(s.inputs)).toEqual([
      ["a", "x"],
      ["b", false],
      ["extra", 1],
    ]);
    expect(Object.keys(toStatusResponse({ ...own, input_order: null }).inputs)).toEqual(["b", "a"]);
  });

  it("a remote's last step: a type of ours kept, its text or else its type as the words", () => {
    const step = (last_step: Record<string, unknown>) =>
      toStatusResponse({ ...base, current_task: "t1", last_step }).last_step;
    expect(step({ type: "tool_call", text: "searching" })).toMatchObject({
      type: "tool_call",
      text: "searching",
      task_id: "t1",
    });
    expect(step({ type: "task_started" })).toMatchObject({ type: "thought", text: "task_started" });
    expect(step({ text: 42 })).toMatchObject({ type: "thought", text: "" });
  });
});

describe("statusJson, when the kept JSON may be reused", () => {
  it("a finished run with a review still open counts its wait up per poll", () => {
    const p = { task_id: "b", output: "draft", attempt: 1, requested_at: "2026-01-01T00:00:00Z" };
    const row: ExecutionSummary = {
      ...base,
      status: "pending_human_input",
      pending_human_input: p,
      review_wait_seconds: 0,
    };
    const prices = { ...DEFAULT_MODEL_PRICES };
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date("2026-01-01T00:01:00Z"));
      const first = JSON.parse(statusJson(row, prices)).timing.review_wait_seconds;
      vi.setSystemTime(new Date("2026-01-01T00:02:00Z"));
      const second = JSON.parse(statusJson(row, prices)).timing.review_wait_seconds;
      expect([first, second]).toEqual([60, 120]);
    } finally {
      vi.useRealTimers();
    }
  });
});
