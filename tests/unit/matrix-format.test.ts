import { describe, expect, it } from "vitest";
import { metricRange, spreadText } from "@/components/experiments/matrix-format";

const rate = { name: "passed", kind: "rate" } as const;

// The bars of one metric share a scale: the lowest and highest interval ends across variants.
describe("metricRange", () => {
  it("spans every variant's interval, a mean standing in for a missing end", () => {
    expect(
      metricRange([
        { mean: 0.5, ci_low: 0.4, ci_high: 0.6 },
        { mean: 0.8, ci_low: null, ci_high: null },
        undefined,
        { mean: null, ci_low: null, ci_high: null },
      ]),
    ).toEqual({ lo: 0.4, hi: 0.8 });
  });
  it("is empty (lo above hi) when no variant has a mean", () => {
    const { lo, hi } = metricRange([undefined]);
    expect(lo > hi).toBe(true);
  });
});

describe("spreadText", () => {
  it("says there is no spread when every run scored the same", () => {
    expect(spreadText(rate, { sd: 0, ci_low: 0.5, ci_high: 0.5 })).toBe("no spread · ");
  });
  it("gives the 95% interval, or nothing without one", () => {
    expect(spreadText(rate, { sd: 0.1, ci_low: 0.25, ci_high: 0.75 })).toBe("95% 25% – 75% · ");
    expect(spreadText(rate, { sd: null, ci_low: null, ci_high: null })).toBe("");
  });
});
