import { describe, expect, it } from "vitest";
import { LEGEND } from "@/components/run/step-style";
import { traceRows } from "@/components/run/trace-rows";
import type { Trace, TraceStep, TraceTask } from "@/components/run/trace-types";
import {
  keyOf,
  legendFor,
  rowKeyAction,
  selectionOf,
  stepCount,
} from "@/components/run/waterfall-model";

// The waterfall's legend, selection and keyboard, decided from the trace's rows.
const step = (key: string, kind: TraceStep["kind"] = "thought"): TraceStep => ({
  key,
  kind,
  label: key,
  taskId: "t",
  attempt: 1,
  start: 0,
  end: 1,
  events: [],
});
const task = (taskId: string, attempts: TraceStep[][]): TraceTask => ({
  taskId,
  name: taskId,
  agent: "a",
  status: "completed",
  start: 0,
  end: 1,
  retries: 0,
  attempts: attempts.map((steps, i) => ({
    attempt: i + 1,
    start: 0,
    end: 1,
    steps,
    output: null,
    review: null,
    format: "text",
  })),
});
const trace: Trace = {
  start: 0,
  end: 1,
  loose: [step("r1", "remote")],
  artifacts: [],
  tasks: [task("a", [[step("s1"), step("s2", "retry")], [step("s3")]]), task("b", [[step("s4")]])],
};
const rows = traceRows(trace, () => true);

describe("the waterfall's model", () => {
  it("adds output checks to the legend only when the run has them", () => {
    expect(legendFor(trace)).toEqual([...LEGEND, "retry"]);
    expect(legendFor({ ...trace, tasks: [] })).toEqual(LEGEND);
  });

  it("counts every step, run-level ones too", () => {
    expect(stepCount(trace)).toBe(5);
  });

  it("selects a row by the key the row has", () => {
    for (const row of rows) expect(keyOf(selectionOf(row))).toBe(row.key);
    expect(keyOf(null)).toBe("");
  });

  it("moves, opens, closes and selects by key", () => {
    // rows: r1, t:a, a:a:1, s1, s2, a:a:2, s3, t:b, s4
    const s1 = rows.findIndex((r) => r.key === "s1");
    const taskA = rows.findIndex((r) => r.key === "t:a");
    expect(rowKeyAction("ArrowDown", rows, 2)).toEqual({ focus: 3 });
    expect(rowKeyAction("ArrowUp", rows, 2)).toEqual({ focus: 1 });
    expect(rowKeyAction("Home", rows, 4)).toEqual({ focus: 0 });
    expect(rowKeyAction("End", rows, 0)).toEqual({ focus: rows.length - 1 });
    expect(rowKeyAction("ArrowRight", rows, taskA)).toEqual({ open: true });
    expect(rowKeyAction("ArrowLeft", rows, taskA)).toEqual({ open: false });
    expect(rowKeyAction("ArrowLeft", rows, s1)).toEqual({ focus: taskA });
    expect(rowKeyAction("Enter", rows, s1)).toEqual({ select: true });
    expect(rowKeyAction(" ", rows, s1)).toEqual({ select: true });
    // A run-level step has no task to go back to; other keys do nothing.
    expect(rowKeyAction("ArrowLeft", rows, 0)).toBeNull();
    expect(rowKeyAction("ArrowRight", rows, s1)).toBeNull();
    expect(rowKeyAction("a", rows, s1)).toBeNull();
    expect(rowKeyAction("ArrowDown", rows, rows.length)).toBeNull();
  });
});
