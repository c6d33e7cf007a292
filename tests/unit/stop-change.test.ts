import { describe, expect, it } from "vitest";
import { stopped } from "@/lib/runs/stop-execution";
import { at, def, runAwaiting, state } from "../support/review-rows";

// What stopping a run writes (lib/runs/stop-execution.ts `stopped`), used by a person's stop, a
// review deadline and retention alike: the run and its unfinished tasks end, its reviews close.

describe("the change that stops a run", () => {
  const defs = [def("a"), def("b"), def("c"), def("d")];
  const tasks = [
    state("a", "completed"),
    state("b", "running"),
    state("c", "pending_human_input"),
    state("d", "pending"),
  ];
  const { row } = runAwaiting(defs, tasks);
  const now = at(3); // the review has waited 3 minutes; 5 s waited before it
  // Made inside each test, not once for all: code that runs while the file is collected belongs
  // to no test, and mutation testing (docs/mutation.md) would not see these tests reach it.
  const stop = () => stopped(row, { by: "ada@example.com", reason: "Stopped on request.", now });

  it("ends the run, its running and waiting tasks with the reason; the rest stay as they were", () => {
    const change = stop();
    expect(change.patch).toMatchObject({
      status: "cancelled",
      lease_owner: null,
      lease_expires_at: null,
      finished_at: now,
      current_task: null,
      error: "Stopped on request.",
      stopped_by: "ada@example.com",
      stopped_at: now,
    });
    const ended = {
      status: "error",
      error: "Stopped on request.",
      finished_at: now.toISOString(),
    };
    expect(change.patch?.tasks).toEqual([
      tasks[0],
      { ...tasks[1], ...ended },
      { ...tasks[2], ...ended },
      tasks[3],
    ]);
  });

  it("closes the open review and counts the time it waited", () => {
    const change = stop();
    expect(change.patch?.open_reviews).toEqual([]);
    expect(change.patch?.review_wait_seconds).toBe(5 + 180);
  });

  it("says what it stopped, from which state, and who stopped it", () => {
    const change = stop();
    expect(change.events).toEqual([
      {
        type: "execution_cancelled",
        data: {
          reason: "Stopped on request.",
          previous_status: "pending_human_input",
          stopped_by: "ada@example.com",
        },
      },
    ]);
  });

  it("adds no waiting time for a run without an open review", () => {
    const running = { ...row, status: "running" as const, open_reviews: [] };
    const change = stopped(running, { by: "worker", reason: "Deadline passed.", now });
    expect(change.patch?.review_wait_seconds).toBe(5);
  });
});
