import { APICallError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { describe, expect, it } from "vitest";
import {
  attemptFailure,
  attemptOf,
  completedOutputs,
  taskStarted,
} from "@/lib/engine/task-attempt";
import { completeTask, secondsBetween } from "@/lib/engine/task-changes";
import { ModelConfigError } from "@/lib/llm/choose-model";
import type { TaskState } from "@/lib/run-model/types";
import { PlaceholderBudgetError } from "@/lib/util/placeholders";
import { def, runAwaiting, state, T0 } from "../support/review-rows";

// Where an attempt at a task starts, what its failure says and what its completion changes in
// the run: decisions on the row alone, without a worker or a database.

const NOW = new Date("2026-01-02T00:00:00Z");

/** A run of tasks a, b with a's state as given and no reviews open. */
function runWith(a: Partial<TaskState>, b: Partial<TaskState> = {}) {
  const defs = [def("a", { human_input: false }), def("b", { human_input: false })];
  const { row } = runAwaiting(defs, [state("a", "pending_human_input"), state("b", "pending")]);
  return {
    ...row,
    status: "running" as const,
    open_reviews: [],
    tasks: [
      { ...state("a", "pending"), ...a },
      { ...state("b", "pending"), ...b },
    ],
  };
}

const decided = [
  { call_id: "c1", tool: "t", approved: true, arguments: {}, reason: "", edited: false },
];

describe("which attempt a task's run is", () => {
  it("starts a new attempt now when nothing was paused", () => {
    const a = attemptOf(runWith({ attempts: 2, started_at: T0.toISOString() }), 0, NOW);
    expect(a).toEqual({ resume: undefined, attempt: 3, startedAt: NOW });
  });

  it("goes on with the same attempt, from its start, once paused calls are decided", () => {
    const paused = { messages: [], steps_used: 2, decided };
    const a = attemptOf(runWith({ attempts: 2, started_at: T0.toISOString(), paused }), 0, NOW);
    expect(a.attempt).toBe(2);
    expect(a.startedAt).toEqual(T0);
    expect(a.resume).toEqual({ paused, decided });
  });

  it("starts afresh from a pause whose calls are not decided yet", () => {
    const paused = { messages: [], steps_used: 2, decided: [] };
    const a = attemptOf(runWith({ attempts: 1, paused }), 0, NOW);
    expect(a).toEqual({ resume: undefined, attempt: 2, startedAt: NOW });
  });

  it("takes now as the start of a resumed attempt that has none recorded", () => {
    const paused = { messages: [], steps_used: 1, decided };
    expect(attemptOf(runWith({ started_at: null, paused }), 0, NOW).startedAt).toEqual(NOW);
  });
});

describe("a task's start", () => {
  const task = def("a");
  it("marks the task running, clears what the last attempt left and says so", () => {
    const row = runWith({ status: "error", error: "boom", finished_at: T0.toISOString() });
    const change = taskStarted(row, {
      task,
      index: 0,
      agentId: "a",
      attempt: 2,
      startedAt: NOW,
      resume: undefined,
    });
    expect(change.patch?.current_task).toBe("a");
    expect(change.patch?.tasks?.[0]).toMatchObject({
      status: "running",
      attempts: 2,
      started_at: NOW.toISOString(),
      finished_at: null,
      execution_time: null,
      error: null,
      paused: undefined,
    });
    expect(change.patch?.tasks?.[1]).toEqual(row.tasks[1]);
    expect(change.events).toEqual([
      {
        type: "task_started",
        task_id: "a",
        attempt: 2,
        data: { agent: "a", name: "A", recovered: false },
      },
    ]);
  });

  it("says a task found running was recovered, and a resumed one continued", () => {
    const paused = { messages: [], steps_used: 1, decided };
    const row = runWith({ status: "running", paused });
    const change = taskStarted(row, {
      task,
      index: 0,
      agentId: "a",
      attempt: 1,
      startedAt: NOW,
      resume: { paused, decided },
    });
    expect(change.patch?.tasks?.[0]?.paused).toEqual(paused);
    expect(change.events?.[0]?.data).toEqual({
      agent: "a",
      name: "A",
      recovered: true,
      continued: true,
      decided_calls: 1,
    });
  });
});

describe("the outputs a task may take as context", () => {
  it("are those of completed tasks only", () => {
    const row = runWith(
      { status: "completed", output: "A out" },
      { status: "running", output: "x" },
    );
    expect([...completedOutputs(row)]).toEqual([["a", "A out"]]);
    expect([...completedOutputs(runWith({ status: "completed", output: null }))]).toEqual([]);
  });
});

describe("why an attempt failed", () => {
  const at = { taskId: "a", timedOut: false, timeoutMs: 90_000, modelId: "m" };
  const apiError = (statusCode?: number) =>
    new APICallError({ message: "overloaded", url: "u", requestBodyValues: {}, statusCode });

  it("says a timeout first, whatever the error", () => {
    expect(attemptFailure(new Error("aborted"), { ...at, timedOut: true })).toBe(
      "Task 'a' timed out after 90 s.",
    );
  });

  it("names the text past its budget", () => {
    const err = new PlaceholderBudgetError("Agent 'b' role", 10, 5);
    expect(attemptFailure(err, at)).toBe(`${err.message}.`);
  });

  it("says what to set when the model cannot be set up", () => {
    expect(attemptFailure(new ModelConfigError("No key for X."), at)).toBe(
      "No key for X: set it in Crewdeck's environment and restart.",
    );
  });

  it("gives the model's HTTP status, and the tries made", () => {
    expect(attemptFailure(apiError(529), at)).toBe("The model 'm' failed: HTTP 529 — overloaded");
    expect(attemptFailure(apiError(), at)).toBe("The model 'm' failed: no response — overloaded");
    const retried = new RetryError({
      message: "gave up",
      reason: "maxRetriesExceeded",
      errors: [apiError(529), apiError(503)],
    });
    expect(attemptFailure(retried, at)).toBe(
      "The model 'm' failed after 2 attempts: HTTP 503 — overloaded",
    );
  });

  it("gives any other error's message", () => {
    expect(attemptFailure(new Error("socket closed"), at)).toBe(
      "The model 'm' failed: socket closed",
    );
  });
});

describe("a task's completion", () => {
  const answer = {
    output: "A out",
    usage: { input_tokens: 3, output_tokens: 4 },
    outputInfo: { format: "json" },
    artifacts: [{ task_id: "a", name: "a.md", content_type: "text/markdown", body: "x", bytes: 1 }],
  };
  const finishedAt = new Date(NOW.getTime() + 1234);
  const complete = (row: ReturnType<typeof runWith>, task = def("a", { human_input: false })) =>
    completeTask(row, {
      task,
      index: 0,
      attempt: 1,
      agentId: "a",
      answer,
      startedAt: NOW,
      finishedAt,
    });

  it("times the task to the hundredth of a second", () => {
    expect(secondsBetween(NOW, finishedAt)).toBe(1.23);
    expect(secondsBetween(NOW, new Date(NOW.getTime() + 1235))).toBe(1.24);
  });

  it("lets the run go on while tasks remain", () => {
    const change = complete(runWith({ status: "running" }));
    expect(change.patch?.status).toBeUndefined();
    expect(change.patch?.tasks?.[0]).toMatchObject({
      status: "completed",
      output: "A out",
      finished_at: finishedAt.toISOString(),
      execution_time: 1.23,
    });
    expect(change.events).toEqual([
      {
        type: "task_completed",
        task_id: "a",
        attempt: 1,
        data: { agent: "a", name: "A", output: "A out", usage: answer.usage, format: "json" },
      },
    ]);
    expect(change.artifacts).toEqual(answer.artifacts);
  });

  it("completes the run with the last task, letting go of the lease", () => {
    const row = runWith({ status: "running" }, { status: "completed", output: "B out" });
    const change = complete(row);
    expect(change.patch).toMatchObject({
      status: "completed",
      result: "A out",
      current_task: null,
      finished_at: finishedAt,
      lease_owner: null,
      lease_expires_at: null,
      token_usage: row.token_usage,
    });
    expect(change.events?.map((e) => e.type)).toEqual(["task_completed", "execution_completed"]);
    expect(change.events?.[1]?.data).toEqual({ result: "A out", token_usage: row.token_usage });
  });

  it("hands an answer that needs a person's review to a reviewer, keeping its file", () => {
    const row = runWith({ status: "running" }, { status: "completed", output: "B out" });
    const change = complete(row, def("a"));
    expect(change.patch?.tasks?.[0]).toMatchObject({
      status: "pending_human_input",
      output: "A out",
    });
    expect(change.patch?.status).toBe("pending_human_input");
    expect(change.patch?.open_reviews?.map((r) => r.task_id)).toEqual(["a"]);
    expect(change.events).toHaveLength(1);
    expect(change.events?.[0]).toMatchObject({
      type: "review_requested",
      task_id: "a",
      attempt: 1,
      data: { agent: "a", name: "A", output: "A out", expected_output: "E", format: "json" },
    });
    expect(change.artifacts).toEqual(answer.artifacts);
  });
});
