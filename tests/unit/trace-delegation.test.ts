import { describe, expect, it } from "vitest";
import { buildTrace } from "@/components/run/trace-model";
import type { ExecutionEvent } from "@/lib/api/schemas";

// The run page's trace of a delegated task: the hand-over and the coworker's steps are named.
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
let seq = 0;
const ev = (type: string, data: Record<string, unknown>, s: number): ExecutionEvent => ({
  seq: ++seq,
  type,
  task_id: "article",
  attempt: 1,
  data,
  created_at: at(s),
});

describe("buildTrace, delegation", () => {
  it("labels the hand-over by coworker and the coworker's steps by agent", () => {
    const manager = { agent: "crew_manager" };
    const writer = { agent: "writer", delegated_by: "crew_manager" };
    const call = { tool: "delegate_work_to_coworker", call_id: "c1" };
    const trace = buildTrace(
      [
        ev("task_started", { ...manager, name: "Article" }, 0),
        ev("thought", { ...manager, text: "hand it over" }, 1),
        ev("tool_call", { ...manager, ...call, tool_input: { coworker: "writer", task: "t" } }, 1),
        ev("thought", { ...writer, text: "writing" }, 2),
        ev("answer", { ...writer, text: "the article" }, 3),
        ev("tool_result", { ...manager, ...call, result: "the article" }, 3),
        ev("answer", { ...manager, text: "the article, checked" }, 4),
      ],
      undefined,
    );
    const labels = trace.tasks[0]?.attempts[0]?.steps.map((s) => s.label);
    expect(labels).toEqual([
      "Thought",
      "Delegated to writer",
      "Thought · writer",
      "Answer · writer",
      "Answer",
    ]);
  });
});
