import { describe, expect, it } from "vitest";
import { buildTrace } from "@/components/run/trace-model";
import type { ExecutionEvent } from "@/lib/contract/status";

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
  it("shows the hand-over, then the coworker's steps under it, each named", () => {
    const manager = { agent: "crew_manager" };
    const writer = { agent: "writer", delegated_by: "crew_manager" };
    const researcher = { agent: "researcher", delegated_by: "crew_manager" };
    const call = { tool: "delegate_work_to_coworker", call_id: "c1" };
    const ask = { tool: "ask_question_to_coworker", call_id: "c2" };
    // As the engine writes them: the coworker works inside the call, which is recorded after.
    const trace = buildTrace(
      [
        ev("task_started", { ...manager, name: "Article" }, 0),
        ev("thought", { ...writer, text: "writing" }, 2),
        ev("answer", { ...writer, text: "the article" }, 3),
        ev("thought", { ...manager, text: "hand it over" }, 3),
        ev("tool_call", { ...manager, ...call, tool_input: { coworker: "writer", task: "t" } }, 3),
        ev("tool_result", { ...manager, ...call, result: "the article" }, 3),
        ev("thought", { ...researcher, text: "checking" }, 4),
        ev("thought", { ...manager, text: "ask a question" }, 5),
        ev("tool_call", { ...manager, ...ask, tool_input: { coworker: "researcher" } }, 5),
        ev("tool_result", { ...manager, ...ask, result: "yes" }, 5),
        ev("answer", { ...manager, text: "the article, checked" }, 6),
      ],
      undefined,
    );
    const steps = trace.tasks[0]?.attempts[0]?.steps ?? [];
    expect(steps.map((s) => s.label)).toEqual([
      "Thought",
      "Delegated to writer",
      "Thought · writer",
      "Answer · writer",
      "Thought",
      "Asked researcher",
      "Thought · researcher",
      "Answer",
    ]);
    // The call spans the coworker's work.
    expect(steps[1]?.start).toBeLessThanOrEqual(steps[2]?.start as number);
  });
});
