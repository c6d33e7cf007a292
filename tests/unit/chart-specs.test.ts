import { describe, expect, it } from "vitest";
import {
  costChart,
  failureRates,
  overviewCharts,
  runsChart,
} from "@/components/overview/chart-specs";
import type { RunStats } from "@/lib/api/client";

// The overview's charts: what each shows and says, from the window's per-day stats.
const day = (
  d: string,
  over: Partial<RunStats["days"][number]> = {},
): RunStats["days"][number] => ({
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
  cost_usd: null,
  ...over,
});
const stats = (days: RunStats["days"], totals: Partial<RunStats["totals"]> = {}): RunStats => ({
  awaiting_review: 0,
  running: 0,
  window_days: days.length,
  days,
  totals: {
    runs: 0,
    completed: 0,
    failed: 0,
    stopped: 0,
    failure_rate: null,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: null,
    p50_seconds: null,
    p95_seconds: null,
    ...totals,
  },
});

describe("the overview's charts", () => {
  it("draws six charts in order", () => {
    expect(overviewCharts(stats([day("2026-01-01")])).map((c) => c.title)).toEqual([
      "Runs per day",
      "Duration",
      "Failure rate",
      "Review wait",
      "Tokens per day",
      "Cost per day",
    ]);
  });

  it("counts runs by outcome, those still going only when there are some", () => {
    const quiet = runsChart(
      stats([day("a", { completed: 2, error: 1 }), day("b", { cancelled: 1 })]),
    );
    expect(quiet.description).toBe("By outcome, last 2 days");
    expect(quiet.chart.summary).toBe(
      "Runs per day over the last 2 days: 2 completed, 1 failed, 1 stopped.",
    );
    expect(quiet.chart.series.map((s) => s.key)).toEqual(["completed", "error", "cancelled"]);
    const busy = runsChart(stats([day("a", { other: 3 })]));
    expect(busy.chart.summary).toMatch(/, 3 still going\.$/);
    expect(busy.chart.series.at(-1)).toMatchObject({ key: "other", values: [3] });
  });

  it("rates failures among finished runs, none on a day nothing finished", () => {
    expect(
      failureRates([
        day("a", { completed: 3, error: 1 }),
        day("b", { other: 2 }),
        day("c", { cancelled: 1 }),
      ]),
    ).toEqual([0.25, null, 0]);
  });

  it("says why the cost chart is empty", () => {
    const free = costChart(stats([day("a")], { runs: 2, cost_usd: 0 }));
    expect(free.chart.emptyLabel).toBe("$0 so far: the models used cost nothing");
    expect(costChart(stats([day("a")], { runs: 0, cost_usd: 0 })).chart.emptyLabel).toBe(
      "No priced model used in these days",
    );
  });
});
