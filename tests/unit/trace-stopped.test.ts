import { describe, expect, it } from "vitest";
import { withoutIsoFormat } from "@/components/crews/kickoff-fields";
import { markStopped } from "@/components/run/trace-steps";
import type { TraceTask } from "@/components/run/trace-types";
import type { ExecutionEvent } from "@/lib/contract/status";

// A stopped run on the run page: the task it cut off ends with the stop, by whom, and nothing of
// it is left running to the end of the axis.
const at = (s: number) => Date.UTC(2026, 0, 1, 0, 0, s);
const stop: ExecutionEvent = {
  seq: 9,
  type: "execution_cancelled",
  task_id: null,
  attempt: null,
  data: { reason: "Stopped from the dashboard", stopped_by: "ada@example.com" },
  created_at: new Date(at(30)).toISOString(),
};
const task = (taskId: string, status: string, open: boolean): TraceTask => ({
  taskId,
  name: taskId,
  agent: "writer",
  status,
  start: at(1),
  end: null,
  retries: 0,
  attempts: [
    {
      attempt: 1,
      start: at(1),
      end: null,
      output: null,
      review: null,
      format: "text",
      steps: [
        {
          key: "e1",
          kind: open ? "review" : "thought",
          label: open ? "Awaiting review" : "Thought",
          taskId,
          attempt: 1,
          start: at(2),
          end: open ? null : at(5),
          events: [],
        },
      ],
    },
  ],
});

describe("markStopped", () => {
  it("ends the interrupted task with a step saying who stopped it, its review cut short", () => {
    const cut = task("draft", "cancelled", true);
    const done = task("outline", "completed", false);
    markStopped([cut, done], stop);
    const steps = cut.attempts[0]?.steps ?? [];
    expect(steps.map((s) => [s.kind, s.label, s.end])).toEqual([
      ["review", "Review cut short", at(30)],
      ["stopped", "Stopped by ada@example.com", at(30)],
    ]);
    expect(cut.end).toBe(at(30));
    expect(cut.attempts[0]?.end).toBe(at(30));
    // A task that had finished is left as it was.
    expect(done.attempts[0]?.steps).toHaveLength(1);
    expect(done.end).toBeNull();
  });
});

describe("withoutIsoFormat", () => {
  it("drops the format a date picker already shows, keeping the rest of the help", () => {
    expect(withoutIsoFormat("Due date (YYYY-MM-DD)")).toBe("Due date");
    expect(withoutIsoFormat("Launch day, YYYY-MM-DD.")).toBe("Launch day.");
    expect(withoutIsoFormat("Format: YYYY-MM-DD")).toBeUndefined();
    expect(withoutIsoFormat("When it ships, in YYYY-MM-DD format")).toBe("When it ships");
    expect(withoutIsoFormat("The day the review ends")).toBe("The day the review ends");
    expect(withoutIsoFormat(null)).toBeUndefined();
  });
});
