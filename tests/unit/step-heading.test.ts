import { describe, expect, it } from "vitest";
import { stepHeading } from "@/components/run/step-detail";
import type { Trace, TraceStep } from "@/components/run/trace-types";

// The detail pane's heading for a step: a tool says so; its task, and attempt when several.
const step = (over: Partial<TraceStep>): TraceStep => ({
  key: "s",
  kind: "thought",
  label: "Thought",
  taskId: "t",
  attempt: 2,
  start: 0,
  end: 1,
  events: [],
  ...over,
});
const attempt = (n: number) => ({
  attempt: n,
  start: 0,
  end: 1,
  steps: [],
  output: null,
  review: null,
  format: "text" as const,
});
const trace = (attempts: number): Trace => ({
  start: 0,
  end: 1,
  loose: [],
  artifacts: [],
  tasks: [
    {
      taskId: "t",
      name: "Write",
      agent: "a",
      status: "completed",
      start: 0,
      end: 1,
      retries: 0,
      attempts: Array.from({ length: attempts }, (_, i) => attempt(i + 1)),
    },
  ],
});

describe("a step's heading", () => {
  it("names its task, and the attempt when the task has several", () => {
    expect(stepHeading(trace(2), step({}))).toEqual({
      title: "Thought",
      kicker: "Write · attempt 2",
    });
    expect(stepHeading(trace(1), step({ kind: "tool", label: "search" }))).toEqual({
      title: "Tool: search",
      kicker: "Write",
    });
    expect(stepHeading(trace(1), step({ taskId: null, label: "Status: running" })).kicker).toBe(
      "Run",
    );
  });
});
