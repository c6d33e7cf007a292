import { describe, expect, it } from "vitest";
import {
  cellsOf,
  inputsPreview,
  isBuiltIn,
  leadMetric,
  meanScore,
  repeatsOf,
  rowNumbers,
  taskOutputs,
} from "@/components/experiments/rows-model";
import type { ExperimentCell } from "@/lib/api/client";

// An experiment's rows: the score that leads, each variant's mean, and what a row shows.
const cell = (over: Partial<ExperimentCell>): ExperimentCell => ({
  n: 1,
  variant: "current",
  row: 1,
  repeat: 1,
  status: "scored",
  execution_id: null,
  inputs: {},
  expected: {},
  outputs: {},
  scores: {},
  ...over,
});
const metric = (name: string) => ({ name, kind: "score" as const, better: "higher" as const });

describe("an experiment's rows", () => {
  it("leads with the first scorer's metric, else the first", () => {
    expect(leadMetric([metric("completed"), metric("quality"), metric("contains")])?.name).toBe(
      "quality",
    );
    expect(leadMetric([metric("completed"), metric("tokens")])?.name).toBe("completed");
    expect(leadMetric([])).toBeUndefined();
    expect([isBuiltIn("latency_s"), isBuiltIn("quality")]).toEqual([true, false]);
  });

  it("averages a metric over the cells that have a number for it", () => {
    const cells = [
      cell({ scores: { quality: { value: 6 } } }),
      cell({ scores: { quality: { value: null, reason: "no answer" } } }),
      cell({ scores: { quality: { value: 8 } } }),
      cell({ scores: {} }),
    ];
    expect(meanScore(cells, "quality")).toBe(7);
    expect(meanScore(cells, "other")).toBeNull();
    expect(meanScore(cells, undefined)).toBeNull();
  });

  it("lists rows, a row's cells by variant, repeats and task outputs", () => {
    const cells = [
      cell({ row: 2, repeat: 2, outputs: { result: "r", write: "w" } }),
      cell({ row: 1, variant: "terse", repeat: 1, outputs: { result: "r", edit: "e" } }),
      cell({ row: 2, repeat: 1 }),
    ];
    expect(rowNumbers(cells)).toEqual([2, 1]);
    expect(cellsOf(cells, 2, "current").map((c) => c.repeat)).toEqual([2, 1]);
    expect(repeatsOf(cells)).toEqual([1, 2]);
    expect(taskOutputs(cells)).toEqual(["write", "edit"]);
  });

  it("previews a row's inputs on one line", () => {
    expect(inputsPreview({ topic: "AI", n: 3, tags: ["a"] })).toBe('AI · 3 · ["a"]');
    expect(inputsPreview({})).toBe("");
  });
});
