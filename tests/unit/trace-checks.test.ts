import { describe, expect, it } from "vitest";
import { buildTrace } from "@/components/run/trace-model";
import type { ExecutionEvent } from "@/lib/contract/status";

// The run page's timeline from the event log: output checks are rows, retries a count on the
// task, structured output is marked JSON, output files are listed.
let seq = 0;
const ev = (
  type: string,
  data: Record<string, unknown> = {},
  task_id = "note",
): ExecutionEvent => ({
  seq: ++seq,
  type,
  task_id,
  attempt: 1,
  data,
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
});

describe("the trace of a run with output checks", () => {
  const events = [
    ev("task_started", { name: "Note", agent: "a" }),
    ev("answer", { text: "a long answer" }),
    ev("guardrail_failed", {
      guardrail: "At most 5 words",
      reason: "The output has 9 words; the rule allows at most 5.",
      retry: 1,
      max_retries: 3,
      final: false,
    }),
    ev("answer", { text: "short" }),
    ev("guardrail_passed", { guardrail: "At most 5 words", reason: "ok" }),
    ev("task_completed", {
      output: "short",
      artifact: { name: "notes/x.md", bytes: 5, content_type: "text/markdown; charset=utf-8" },
    }),
    ev("task_started", { name: "Rate", agent: "a" }, "rate"),
    ev("output_invalid", { errors: ["/ bad"], retry: 1, max_retries: 2, final: false }, "rate"),
    ev("output_invalid", { errors: ["/ bad"], retry: 2, max_retries: 2, final: false }, "rate"),
    ev("task_completed", { output: '{"a":1}', format: "json" }, "rate"),
  ];
  const trace = buildTrace(events, undefined);
  const [note, rate] = trace.tasks;

  it("shows each check as a row in its attempt, saying which retry it caused", () => {
    expect(note?.attempts).toHaveLength(1);
    expect(note?.attempts[0]?.steps.map((s) => [s.kind, s.label])).toEqual([
      ["answer", "Answer"],
      ["retry", "Guardrail failed"],
      ["answer", "Answer"],
      ["check", "Guardrail passed"],
    ]);
    expect(rate?.attempts[0]?.steps.map((s) => s.label)).toEqual(["Invalid JSON", "Invalid JSON"]);
  });

  it("counts retries per task for the badge, and marks structured output", () => {
    expect([note?.retries, rate?.retries]).toEqual([1, 2]);
    expect([note?.attempts[0]?.format, rate?.attempts[0]?.format]).toEqual(["text", "json"]);
  });

  it("lists the files", () => {
    expect(trace.artifacts).toEqual([
      { taskId: "note", name: "notes/x.md", bytes: 5, contentType: "text/markdown; charset=utf-8" },
    ]);
  });

  it("a final failure is no retry", () => {
    const t = buildTrace(
      [
        ev("task_started", {}, "z"),
        ev("guardrail_failed", { retry: 4, max_retries: 3, final: true }, "z"),
      ],
      undefined,
    );
    expect(t.tasks[0]?.retries).toBe(0);
    expect(t.tasks[0]?.attempts[0]?.steps.map((s) => [s.kind, s.label])).toEqual([
      ["failed", "Guardrail failed"],
    ]);
  });
});
