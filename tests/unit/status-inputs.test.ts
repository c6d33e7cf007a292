import { describe, expect, it } from "vitest";
import { orderedInputs } from "@/lib/runs/status-view";

describe("a run's inputs on /status", () => {
  it("come in the crew's order, then those it no longer names, in their own", () => {
    const got = orderedInputs(["b", "a", "gone"], { z: 1, a: "x", b: false });
    expect(Object.entries(got)).toEqual([
      ["b", false],
      ["a", "x"],
      ["z", 1],
    ]);
  });
});
