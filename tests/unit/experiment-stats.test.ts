import { describe, expect, it } from "vitest";
import { cohenKappa, summarize, tQuantile, wilson } from "@/lib/experiments/stats";

// Checked against published tables: Student's t critical values (two-sided 95%) and Wilson's
// interval as Newcombe (1998) tabulates it.
describe("experiment statistics", () => {
  it("t quantiles match the table", () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(tQuantile(0.975, 2)).toBeCloseTo(4.3027, 4);
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.7764, 4);
    expect(tQuantile(0.975, 14)).toBeCloseTo(2.1448, 4);
    expect(tQuantile(0.975, 30)).toBeCloseTo(2.0423, 4);
    expect(tQuantile(0.975, 1000)).toBeCloseTo(1.9623, 3);
  });

  it("summarizes a mean with its t interval; one value has no spread", () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd √(32/7).
    const s = summarize([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(s.mean).toBe(5);
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 6);
    const half = (2.364624 * Math.sqrt(32 / 7)) / Math.sqrt(8);
    expect(s.ci_low).toBeCloseTo(5 - half, 5);
    expect(s.ci_high).toBeCloseTo(5 + half, 5);
    expect(summarize([7])).toEqual({ n: 1, mean: 7, sd: null, ci_low: null, ci_high: null });
    expect(summarize([]).mean).toBeNull();
    expect(summarize([3, 3, 3])).toMatchObject({ sd: 0, ci_low: 3, ci_high: 3 });
  });

  it("gives Wilson's interval, honest at the edges", () => {
    // Newcombe's examples: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605; 0/20 → 0–0.1611.
    expect(wilson(81, 263)).toMatchObject({
      low: expect.closeTo(0.2553, 3),
      high: expect.closeTo(0.3662, 3),
    });
    expect(wilson(15, 148)).toMatchObject({
      low: expect.closeTo(0.0624, 3),
      high: expect.closeTo(0.1605, 3),
    });
    expect(wilson(0, 20)).toMatchObject({ rate: 0, low: 0, high: expect.closeTo(0.1611, 3) });
    expect(wilson(0, 0).rate).toBeNull();
  });

  it("computes Cohen's kappa", () => {
    // 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: po 0.7, pe 0.5 → 0.4.
    expect(cohenKappa(20, 5, 10, 15)).toBeCloseTo(0.4, 6);
    expect(cohenKappa(10, 0, 0, 0)).toBeNull();
  });
});
