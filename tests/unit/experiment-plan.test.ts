import { describe, expect, it } from "vitest";
import { planProblems } from "@/lib/experiments/experiment-problems";
import { cellsOf } from "@/lib/experiments/insert-experiment";

// What an experiment's request gets wrong before anything is written, and the cells it makes:
// decided on the request alone, no database.

describe("an experiment's plan", () => {
  const plan = { baseline: "a", names: ["a", "b"], scorers: [], gates: [], cells: 10 };
  it("is fine with a listed baseline, known metrics and at most 10,000 cells", () => {
    expect(planProblems({ ...plan, gates: [{ metric: "latency_s" }], cells: 10_000 })).toEqual([]);
  });
  it("names a baseline that is not a variant, an unknown metric and too many cells, in order", () => {
    expect(
      planProblems({
        ...plan,
        baseline: "z",
        gates: [{ metric: "completed" }, { metric: "nope" }],
        cells: 10_001,
      }),
    ).toEqual([
      { path: "baseline", message: "'z' is not one of the variants (a, b)" },
      {
        path: "gates.1.metric",
        message: expect.stringMatching(/^no metric 'nope' \(metrics: completed, latency_s, /),
      },
      {
        path: "repeats",
        message: "10001 runs is more than 10000: fewer rows, variants or repeats",
      },
    ]);
  });
});

describe("an experiment's cells", () => {
  it("are numbered repeat by repeat, row by row, variant by variant", () => {
    const rows: {
      position: number;
      inputs: Record<string, unknown>;
      expected: Record<string, string>;
    }[] = [
      { position: 1, inputs: { q: "x" }, expected: {} },
      { position: 2, inputs: { q: "y" }, expected: { a: "1" } },
    ];
    const cells = cellsOf(rows, ["a", "b"], 2);
    expect(cells.map((c) => [c.n, c.repeat, c.row, c.variant])).toEqual([
      [1, 1, 1, "a"],
      [2, 1, 1, "b"],
      [3, 1, 2, "a"],
      [4, 1, 2, "b"],
      [5, 2, 1, "a"],
      [6, 2, 1, "b"],
      [7, 2, 2, "a"],
      [8, 2, 2, "b"],
    ]);
    expect(cells[3]).toMatchObject({ inputs: { q: "y" }, expected: { a: "1" } });
  });
});
