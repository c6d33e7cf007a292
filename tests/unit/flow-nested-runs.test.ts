import { describe, expect, it } from "vitest";
import { nestedRuns } from "@/components/run/flow-method-detail";

// A flow method's detail links the runs it set off: finished ones, and the one it waits for.
const step = (method: string, nested_runs: string[]) => ({
  method,
  outcome: null,
  feedback: null,
  nested_runs,
  started_at: "",
  finished_at: "",
});

describe("a flow method's nested runs", () => {
  it("lists each once, the run it waits for now last", () => {
    const flow = {
      current: { method: "write", nested_run: "r3", awaiting_feedback: false },
      path: [step("write", ["r1"]), step("plan", ["p1"]), step("write", ["r1", "r2"])],
      queued: [],
      state: {},
    };
    expect(nestedRuns("write", flow)).toEqual(["r1", "r2", "r3"]);
    expect(nestedRuns("plan", flow)).toEqual(["p1"]);
    expect(nestedRuns("write", { ...flow, current: null })).toEqual(["r1", "r2"]);
    expect(nestedRuns("write", undefined)).toEqual([]);
  });
});
