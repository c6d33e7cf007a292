import { describe, expect, it } from "vitest";
import type { TraceRow } from "@/components/run/trace-rows";
import type { TraceStep, TraceTask } from "@/components/run/trace-types";
import { barPlacement, rowPreview, rowSpan } from "@/components/run/waterfall-row-model";
import type { ExecutionEvent } from "@/lib/contract/status";

// A waterfall row: its span and colour, where its bar sits, and the preview beside its label.
const ev = (data: Record<string, unknown>): ExecutionEvent => ({
  seq: 1,
  type: "x",
  task_id: "t",
  attempt: 1,
  data,
  created_at: "",
});
const stepRow = (kind: TraceStep["kind"], ...data: Record<string, unknown>[]): TraceRow => ({
  type: "step",
  key: "s",
  depth: 1,
  task: null,
  step: {
    key: "s",
    kind,
    label: "L",
    taskId: "t",
    attempt: 1,
    start: 5,
    end: null,
    events: data.map(ev),
  },
});
const task = (status: string): TraceTask => ({
  taskId: "t",
  name: "Write",
  agent: "a",
  status,
  start: 1,
  end: 2,
  attempts: [],
  retries: 0,
});

describe("a waterfall row", () => {
  it("spans its task, attempt or step, coloured by what it is", () => {
    expect(rowSpan({ type: "task", key: "t", depth: 0, task: task("error") })).toEqual({
      from: 1,
      to: 2,
      label: "Write",
      bar: "bg-chart-2",
    });
    expect(rowSpan({ type: "task", key: "t", depth: 0, task: task("cancelled") }).bar).toBe(
      "bg-muted-foreground/40",
    );
    const attempt = {
      attempt: 2,
      start: 3,
      end: 4,
      steps: [],
      output: null,
      review: null,
      format: "text" as const,
    };
    expect(
      rowSpan({ type: "attempt", key: "a", depth: 1, task: task("completed"), attempt }),
    ).toEqual({
      from: 3,
      to: 4,
      label: "Attempt 2",
      bar: "bg-primary/40",
    });
    expect(rowSpan(stepRow("thought"))).toMatchObject({ from: 5, to: null, label: "L" });
  });

  it("keeps every bar on the axis", () => {
    expect(barPlacement(150, 100, 100, 1000)).toEqual({ left: 5, width: 10 });
    expect(barPlacement(50, 100, 100, 1000)).toEqual({ left: 0, width: 10 });
    expect(barPlacement(1950, 500, 100, 1000)).toEqual({ left: 100, width: 0 });
    expect(barPlacement(1000, 500, 100, 1000)).toEqual({ left: 90, width: 10 });
    expect(barPlacement(null, null, 100, 1000)).toEqual({ left: 0, width: 0 });
  });

  it("previews what a step said, why a check failed, or a reviewer's feedback", () => {
    expect(rowPreview(stepRow("thought", { text: "# **Bold** `x`" }))).toBe(" Bold x");
    expect(rowPreview(stepRow("answer", { text: "a".repeat(200) }))).toHaveLength(120);
    expect(rowPreview(stepRow("retry", { errors: ["/a bad", "/b bad"] }))).toBe("/a bad; /b bad");
    expect(rowPreview(stepRow("check", { reason: "fine" }))).toBe("fine");
    expect(rowPreview(stepRow("check", { reason: 3 }))).toBe("");
    expect(rowPreview(stepRow("review", {}, { feedback: "shorter" }))).toBe("shorter");
    expect(rowPreview(stepRow("review", {}))).toBe("");
    expect(rowPreview(stepRow("failed", { error: "boom" }))).toBe("");
    expect(rowPreview({ type: "task", key: "t", depth: 0, task: task("running") })).toBe("");
  });
});
