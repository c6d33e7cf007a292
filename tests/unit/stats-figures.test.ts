import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL_PRICES } from "@/lib/run-model/pricing";
import { statsOf } from "@/lib/runs/execution-stats";

// The overview's figures from the rows its queries return, with no database: what needs
// attention, each day's cost, the window's totals and failure rate.

const day = (d: string, f: Partial<Record<string, number>> = {}) => ({
  day: d,
  completed: 0,
  error: 0,
  cancelled: 0,
  other: 0,
  avg_seconds: null,
  max_seconds: null,
  p50_seconds: null,
  p95_seconds: null,
  review_wait_p50_seconds: null,
  input_tokens: 0,
  output_tokens: 0,
  ...f,
});

describe("the overview's figures", () => {
  const model = "openai/gpt-4o-mini";
  const stats = statsOf(
    {
      counts: [
        { status: "pending_human_input", n: 2 },
        { status: "running", n: 3 },
        { status: "queued", n: 1 },
      ],
      dayRows: [
        day("2026-03-01", { completed: 2, error: 1, other: 4, input_tokens: 10 }),
        day("2026-03-02", { completed: 3, cancelled: 1, output_tokens: 5 }),
      ],
      byModel: [{ day: "2026-03-02", model, input_tokens: 1_000_000, output_tokens: 0 }],
      window: { p50_seconds: 4, p95_seconds: 9 },
    },
    2,
    DEFAULT_MODEL_PRICES,
  );
  it("counts what needs attention: reviews awaited, runs running or queued", () => {
    expect(stats.awaiting_review).toBe(2);
    expect(stats.running).toBe(4);
  });
  it("prices each day's tokens by model; a day without any costs nothing", () => {
    expect(stats.days[0]?.cost_usd).toBe(0);
    expect(stats.days[1]?.cost_usd).toBeGreaterThan(0);
    expect(stats.totals.cost_usd).toBe(stats.days[1]?.cost_usd);
  });
  it("totals the window, the failure rate over finished runs only", () => {
    expect(stats.totals).toMatchObject({
      runs: 11,
      completed: 5,
      failed: 1,
      stopped: 1,
      failure_rate: 0.1429,
      input_tokens: 10,
      output_tokens: 5,
      p50_seconds: 4,
      p95_seconds: 9,
    });
  });
  it("has no failure rate or percentiles when nothing finished", () => {
    const empty = statsOf(
      { counts: [], dayRows: [day("d")], byModel: [], window: undefined },
      1,
      DEFAULT_MODEL_PRICES,
    );
    expect(empty.totals).toMatchObject({
      runs: 0,
      failure_rate: null,
      p50_seconds: null,
      cost_usd: 0,
    });
    expect(empty.running).toBe(0);
  });
});
