import { describe, expect, it } from "vitest";
import { inMetricsNetworks } from "@/lib/metrics/metrics-access";
import { observeChange, observeDelivery, observeTokens } from "@/lib/metrics/observe";
import { metrics } from "@/lib/metrics/registry";
import type { ExecutionRow, TaskState } from "@/lib/run-model/types";
import { executionSpanId, taskSpanId, traceIdOf } from "@/lib/telemetry/ids";
import { tracingWanted } from "@/lib/telemetry/start";
import { parseExposition, sampleValue } from "../support/prometheus-text";

const task = (over: Partial<TaskState>): TaskState => ({
  task_id: "research",
  name: "Research",
  agent: "researcher",
  human_input: false,
  status: "pending",
  attempts: 0,
  output: null,
  started_at: null,
  finished_at: null,
  execution_time: null,
  ...over,
});
const row = (over: Partial<ExecutionRow>): ExecutionRow =>
  ({
    id: "6f1c2d3e-4b5a-4c6d-8e7f-0123456789ab",
    crew: "unit-crew",
    status: "running",
    tasks: [],
    open_reviews: [],
    token_usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    ...over,
  }) as ExecutionRow;

const value = async (name: string, labels: Record<string, string> = {}) =>
  sampleValue(parseExposition(await metrics().registry.metrics()), name, labels);

describe("metrics from state changes", () => {
  it("is one registry per process, on globalThis (route and instrumentation bundles share it)", () => {
    const m = metrics();
    const slot = (globalThis as unknown as Record<symbol, unknown>)[Symbol.for("crewdeck.metrics")];
    expect(slot).toBe(m);
  });

  it("counts a run's start, end, task duration, closed review and take-over", async () => {
    const started = "2026-01-01T00:00:00.000Z";
    const finished = "2026-01-01T00:00:04.000Z";
    observeChange(row({ status: "queued" }), row({ status: "running" }), [
      { type: "execution_started" },
    ]);
    observeChange(
      row({
        tasks: [task({ status: "running", started_at: started })],
        open_reviews: [
          {
            task_id: "research",
            attempt: 1,
            requested_at: new Date(Date.now() - 60_000).toISOString(),
          } as ExecutionRow["open_reviews"][number],
        ],
      }),
      row({
        status: "completed",
        tasks: [task({ status: "completed", started_at: started, finished_at: finished })],
      }),
      [{ type: "execution_recovered" }],
    );
    expect(await value("crewdeck_runs_started_total", { crew: "unit-crew" })).toBe(1);
    expect(
      await value("crewdeck_runs_finished_total", { crew: "unit-crew", outcome: "completed" }),
    ).toBe(1);
    expect(await value("crewdeck_lease_takeovers_total")).toBe(1);
    expect(await value("crewdeck_task_duration_seconds_sum", { crew: "unit-crew" })).toBe(4);
    expect(await value("crewdeck_review_duration_seconds_count", { kind: "output" })).toBe(1);
  });

  it("does not count an end twice (a change after the end)", async () => {
    observeChange(row({ status: "error" }), row({ status: "error" }), []);
    expect(
      await value("crewdeck_runs_finished_total", { crew: "unit-crew", outcome: "error" }),
    ).toBe(0);
  });

  it("counts tokens with their estimated cost, and deliveries by outcome", async () => {
    observeTokens("unit-crew", "openai/gpt-4o-mini", 1_000_000, 1_000_000);
    expect(
      await value("crewdeck_llm_tokens_total", { model: "openai/gpt-4o-mini", type: "input" }),
    ).toBe(1_000_000);
    expect(await value("crewdeck_llm_cost_usd_total", { model: "openai/gpt-4o-mini" })).toBeCloseTo(
      0.75,
    );
    observeDelivery("task", "succeeded");
    observeDelivery("task", "pending");
    observeDelivery("task", "failed");
    for (const outcome of ["delivered", "failed", "gave_up"])
      expect(await value("crewdeck_webhook_deliveries_total", { kind: "task", outcome })).toBe(1);
  });
});

describe("METRICS_ALLOWED_NETWORKS", () => {
  it.each([
    ["127.0.0.1", "127.0.0.0/8", true],
    ["::ffff:10.1.2.3", "10.0.0.0/8", true],
    ["10.1.2.3", "192.168.0.0/16, 10.0.0.0/8", true],
    ["192.0.2.1", "10.0.0.0/8", false],
    ["::1", "127.0.0.0/8", false],
    ["unknown", "0.0.0.0/0", false],
    ["127.0.0.1", "", false],
  ])("%s in '%s': %s", (address, list, expected) =>
    expect(inMetricsNetworks(address, list)).toBe(expected),
  );
  it("refuses a value that is not a CIDR", () =>
    expect(() => inMetricsNetworks("127.0.0.1", "localhost")).toThrow(/not a CIDR/));
});

describe("trace ids", () => {
  const id = "6F1C2D3E-4B5A-4C6D-8E7F-0123456789AB";
  it("an execution's trace id is its UUID, its spans' ids derive from it", () => {
    expect(traceIdOf(id)).toBe("6f1c2d3e4b5a4c6d8e7f0123456789ab");
    expect(executionSpanId(id)).toMatch(/^[0-9a-f]{16}$/);
    expect(taskSpanId(id, "a")).toBe(taskSpanId(id, "a"));
    expect(taskSpanId(id, "a")).not.toBe(taskSpanId(id, "b"));
  });
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_TRACES_EXPORTER: "none" }, false],
  ])("tracing wanted with %o: %s", (vars, expected) => expect(tracingWanted(vars)).toBe(expected));
});
