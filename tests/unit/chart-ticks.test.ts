import { describe, expect, it } from "vitest";
import { niceTicks } from "@/components/charts/scale";
import { formatDuration } from "@/lib/format/duration";

// An axis never repeats a label: whole runs in whole steps, seconds in steps a clock reads.
const labels = (ticks: number[], format: (v: number) => string) => ticks.map(format);

describe("niceTicks", () => {
  it("counts in whole steps", () => {
    expect(niceTicks(2, 4, "count")).toEqual([0, 1, 2]);
    expect(niceTicks(3, 4, "count")).toEqual([0, 1, 2, 3]);
    expect(niceTicks(37, 4, "count")).toEqual([0, 10, 20, 30, 40]);
  });

  it("times in seconds, then whole minutes, then hours", () => {
    expect(niceTicks(25, 4, "seconds")).toEqual([0, 10, 20, 30]);
    expect(niceTicks(150, 4, "seconds")).toEqual([0, 60, 120, 180]);
    expect(niceTicks(40 * 60, 4, "seconds")).toEqual([0, 600, 1200, 1800, 2400]);
    expect(niceTicks(3 * 3600, 4, "seconds").every((v) => v % 3600 === 0 || v % 1800 === 0)).toBe(
      true,
    );
  });

  it("never repeats a label", () => {
    for (const max of [0.4, 1, 2, 7, 59, 61, 95, 130, 599, 3700, 20_000]) {
      const said = labels(niceTicks(max, 4, "seconds"), formatDuration);
      expect(new Set(said).size, `${max}: ${said.join(", ")}`).toBe(said.length);
      const counted = niceTicks(max, 4, "count").map(String);
      expect(new Set(counted).size).toBe(counted.length);
    }
  });
});
