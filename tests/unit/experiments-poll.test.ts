import { describe, expect, it } from "vitest";
import { experimentsPollMs } from "@/components/experiments/experiments-poll";

// The experiments list polls fast only while one of them is still running.
describe("experimentsPollMs", () => {
  it("polls every 2 s while an experiment runs", () => {
    expect(experimentsPollMs([{ status: "completed" }, { status: "running" }])).toBe(2000);
  });
  it("polls every 30 s when none runs, or before the list has loaded", () => {
    expect(experimentsPollMs([{ status: "stopped" }, { status: "budget_reached" }])).toBe(30_000);
    expect(experimentsPollMs([])).toBe(30_000);
    expect(experimentsPollMs(undefined)).toBe(30_000);
  });
});
