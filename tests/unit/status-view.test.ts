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
