import { afterEach, describe, expect, it, vi } from "vitest";
import { SUMMARY_SCAN_CHARS, taskSummary } from "@/lib/webhooks/payloads";

// A task webhook's summary keeps ten words of a description that may be a megabyte (a run's
// inputs expanded into it): it reads only a bounded prefix, never splits the whole text.
afterEach(() => vi.restoreAllMocks());

describe("taskSummary", () => {
  it("keeps the first ten words", () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    expect(taskSummary(words)).toBe("w0 w1 w2 w3 w4 w5 w6 w7 w8 w9...");
    expect(taskSummary("Write a\nreport")).toBe("Write a report...");
  });

  it("splits at most SUMMARY_SCAN_CHARS characters of a long description", () => {
    const lengths: number[] = [];
    const split = String.prototype.split;
    vi.spyOn(String.prototype, "split").mockImplementation(function (
      this: string,
      ...args: Parameters<typeof split>
    ) {
      lengths.push(this.length);
      return split.apply(this, args);
    });
    const summary = taskSummary("word ".repeat(200_000));
    expect(summary).toBe(`${"word ".repeat(9)}word...`);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(SUMMARY_SCAN_CHARS);
  });

  it("cuts a first word longer than the prefix", () => {
    expect(taskSummary("a".repeat(100_000))).toBe(`${"a".repeat(SUMMARY_SCAN_CHARS)}...`);
  });
});
