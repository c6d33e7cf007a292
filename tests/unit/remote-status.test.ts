import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRemoteError, readRemoteStatus } from "@/lib/deployments/remote-status";

// A /status body as Crewdeck serves it (lib/runs/status-view.ts), awaiting review of `write`.
const crewdeckBody = {
  kickoff_id: "6f1c2a4e-8d1b-4c3a-9e2f-0a1b2c3d4e5f",
  crew: "research-brief",
  status: "pending_human_input",
  state: "PENDING_HUMAN_INPUT",
  current_task: "write",
  in_progress: ["write"],
  progress: { completed_tasks: 1, total_tasks: 2 },
  tasks: [
    {
      task_id: "research",
      name: "Research",
      agent: "researcher",
      status: "completed",
      attempts: 1,
      output: "Notes",
      started_at: "2025-01-01T00:00:00.000Z",
      finished_at: "2025-01-01T00:00:05.000Z",
      execution_time: 5,
    },
    {
      task_id: "write",
      name: "Write",
      agent: "writer",
      status: "pending_human_input",
      attempts: 2,
      output: "Draft",
      started_at: "2025-01-01T00:00:05.000Z",
      finished_at: null,
      execution_time: null,
    },
  ],
  pending_human_input: {
    task_id: "write",
    output: "Draft",
    attempt: 2,
    requested_at: "2025-01-01T00:00:09.000Z",
  },
  last_step: {
    type: "answer",
    task_id: "write",
    agent: "writer",
    attempt: 2,
    text: "Draft",
    at: "2025-01-01T00:00:09.000Z",
  },
  result: null,
  error: null,
  created_at: "2025-01-01T00:00:00.000Z",
  updated_at: "2025-01-01T00:00:09.000Z",
  execution_time: 9,
};

describe("readRemoteStatus: Crewdeck's own body", () => {
  it("reads state, tasks, the review awaited and the last step", () => {
    expect(readRemoteStatus(crewdeckBody)).toEqual({
      state: "pending_human_input",
      result: null,
      error: null,
      tasks: [
        {
          task_id: "research",
          name: "Research",
          status: "completed",
          output: "Notes",
          attempts: 1,
        },
        {
          task_id: "write",
          name: "Write",
          status: "pending_human_input",
          output: "Draft",
          attempts: 2,
        },
      ],
      pending: { task_id: "write", output: "Draft", attempt: 2 },
      last_step: { type: "answer", text: "Draft" },
      raw: crewdeckBody,
    });
  });

  it("reads the result of a completed run and the error of a failed one", () => {
    const done = { ...crewdeckBody, status: "completed", state: "SUCCESS", result: "The brief" };
    expect(readRemoteStatus(done)).toMatchObject({ state: "completed", result: "The brief" });
    const failed = { ...crewdeckBody, status: "error", state: "FAILURE", error: "Model timed out" };
    expect(readRemoteStatus(failed)).toMatchObject({ state: "error", error: "Model timed out" });
  });

  it("names a tool call by its tool", () => {
    const body = { status: "running", last_step: { type: "tool_call", tool: "word_count" } };
    expect(readRemoteStatus(body).last_step).toEqual({ type: "tool_call", text: "word_count" });
  });

  it.each(["queued", "running", "pending_human_input", "completed", "error", "cancelled"] as const)(
    "status %s wins over a disagreeing CrewAI state",
    (status) => {
      expect(readRemoteStatus({ status, state: "REVOKED" }).state).toBe(status);
    },
  );
});

describe("readRemoteStatus: CrewAI's state", () => {
  it.each([
    ["PENDING", "queued"],
    ["STARTED", "running"],
    ["RUNNING", "running"],
    ["SUCCESS", "completed"],
    ["FAILED", "error"],
    ["FAILURE", "error"],
    ["REVOKED", "cancelled"],
    ["PENDING_HUMAN_INPUT", "pending_human_input"],
  ])("%s → %s, in any letter case", (state, want) => {
    expect(readRemoteStatus({ state }).state).toBe(want);
    expect(readRemoteStatus({ state: state.toLowerCase() }).state).toBe(want);
    expect(readRemoteStatus({ state: state.charAt(0) + state.slice(1).toLowerCase() }).state).toBe(
      want,
    );
  });

  it("prefers a recognised state over a status that is not one of ours", () => {
    expect(readRemoteStatus({ status: "whatever", state: "SUCCESS" }).state).toBe("completed");
    expect(readRemoteStatus({ status: "pending", state: "STARTED" }).state).toBe("running");
  });
});

describe("readRemoteStatus: CrewAI's status", () => {
  it.each([
    ["running", "running"],
    ["completed", "completed"],
    ["error", "error"],
    ["success", "completed"],
    ["failed", "error"],
    ["pending", "queued"],
    ["cancelled", "cancelled"],
    ["canceled", "cancelled"],
    ["paused", "pending_human_input"],
    ["pending_human_input", "pending_human_input"],
    ["waiting_for_feedback", "pending_human_input"],
  ])("%s → %s, in any letter case", (status, want) => {
    expect(readRemoteStatus({ status }).state).toBe(want);
    expect(readRemoteStatus({ status: status.toUpperCase() }).state).toBe(want);
    expect(readRemoteStatus({ status: ` ${status} ` }).state).toBe(want);
  });

  it("reads the documented running body: no tasks, no step yet", () => {
    const body = {
      status: "running",
      current_task: "research_task",
      progress: { completed_tasks: 1, total_tasks: 3 },
    };
    expect(readRemoteStatus(body)).toEqual({
      state: "running",
      result: null,
      error: null,
      tasks: [],
      pending: null,
      last_step: null,
      raw: body,
    });
  });

  it("reads the documented completed body: result.output and result.tasks", () => {
    const body = {
      status: "completed",
      result: {
        output: "Seven days in Japan",
        tasks: [
          { task_id: "research_task", output: "Findings", agent: "Travel Researcher" },
          { task_id: "planning_task", output: "Itinerary", agent: "Trip Planner" },
        ],
      },
      execution_time: 108.5,
    };
    expect(readRemoteStatus(body)).toMatchObject({
      state: "completed",
      result: "Seven days in Japan",
      tasks: [
        {
          task_id: "research_task",
          name: null,
          status: "completed",
          output: "Findings",
          attempts: null,
        },
        {
          task_id: "planning_task",
          name: null,
          status: "completed",
          output: "Itinerary",
          attempts: null,
        },
      ],
    });
  });

  it("reads TaskOutput-like tasks: id from name, task_id or position; output from raw, output or summary", () => {
    const body = {
      state: "SUCCESS",
      result: {
        raw: "Final answer",
        tasks_output: [
          { name: "research", description: "Research it", raw: "Notes", summary: "Research…" },
          { task_id: "t2", name: "Write", output: "Draft" },
          { description: "Review it", summary: "Looks good" },
          "not a task",
          { agent: "Editor" },
        ],
      },
    };
    expect(readRemoteStatus(body)).toMatchObject({
      state: "completed",
      result: "Final answer",
      tasks: [
        {
          task_id: "research",
          name: "research",
          status: "completed",
          output: "Notes",
          attempts: null,
        },
        { task_id: "t2", name: "Write", status: "completed", output: "Draft", attempts: null },
        {
          task_id: "task-3",
          name: null,
          status: "completed",
          output: "Looks good",
          attempts: null,
        },
        { task_id: "task-5", name: null, status: "completed", output: null, attempts: null },
      ],
    });
  });

  it("reads a string result as it is", () => {
    expect(readRemoteStatus({ state: "SUCCESS", result: "Plain text" }).result).toBe("Plain text");
  });

  it("uses raw when a completed result has no output", () => {
    const body = { status: "completed", result: { raw: "Raw text", json_dict: null } };
    expect(readRemoteStatus(body).result).toBe("Raw text");
  });

  it("shows a structured result with no text field as JSON", () => {
    const body = { status: "completed", result: { json_dict: { score: 3 } } };
    expect(readRemoteStatus(body).result).toBe('{"json_dict":{"score":3}}');
    expect(readRemoteStatus({ status: "completed", result: {} }).result).toBeNull();
  });

  it("reads the last executed task as a task and as the last step", () => {
    const body = {
      state: "RUNNING",
      last_step: {},
      last_executed_task: { name: "research", raw: "Notes on heat pumps" },
    };
    expect(readRemoteStatus(body)).toMatchObject({
      tasks: [
        {
          task_id: "research",
          name: "research",
          status: "completed",
          output: "Notes on heat pumps",
        },
      ],
      last_step: { type: "task", text: "Notes on heat pumps" },
    });
  });

  it("reads a thought-only step", () => {
    const body = { state: "STARTED", last_step: { thought: "Searching", tool: "web_search" } };
    expect(readRemoteStatus(body).last_step).toEqual({ type: null, text: "Searching" });
  });

  it("guesses the task awaiting review from the latest output when a paused body does not say", () => {
    const body = { status: "paused", last_executed_task: { name: "draft", raw: "Draft text" } };
    expect(readRemoteStatus(body).pending).toEqual({
      task_id: "draft",
      output: "Draft text",
      attempt: null,
    });
    expect(readRemoteStatus({ status: "paused" }).pending).toBeNull();
  });

  it.each([
    ["error", { state: "FAILURE", error: "Agent crashed: boom" }, "Agent crashed: boom"],
    ["message", { status: "error", message: "Invalid API key" }, "Invalid API key"],
    ["error.message", { status: "failed", error: { message: "Boom" } }, "Boom"],
  ])("reads the failure from %s", (_, body, want) => {
    expect(readRemoteStatus(body).error).toBe(want);
  });

  it("ignores message while the run is healthy", () => {
    expect(readRemoteStatus({ status: "running", message: "Working" }).error).toBeNull();
  });

  it("drops fields of the wrong type without losing the rest", () => {
    const body = {
      state: "SUCCESS",
      result: "Done",
      error: 42,
      tasks: "three",
      last_step: ["x"],
      pending_human_input: { output: "no task id" },
    };
    expect(readRemoteStatus(body)).toEqual({
      state: "completed",
      result: "Done",
      error: null,
      tasks: [],
      pending: null,
      last_step: null,
      raw: body,
    });
  });
});

describe("readRemoteStatus: shapes it does not understand", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a string", "Healthy"],
    ["an array", [{ status: "running" }]],
    ["an empty object", {}],
    ["an unknown state", { state: "EXPLODED" }],
    ["a non-string state", { state: 1, status: ["running"] }],
    ["deep junk", { a: { b: { c: [{ d: { status: "running" } }] } } }],
  ])("%s → state null, raw kept", (_, body) => {
    expect(readRemoteStatus(body)).toEqual({
      state: null,
      result: null,
      error: null,
      tasks: [],
      pending: null,
      last_step: null,
      raw: body,
    });
  });

  it("never throws, whatever the JSON, and always keeps the body", () => {
    const statusish = fc.record(
      {
        status: fc.oneof(
          fc.constantFrom("running", "completed", "paused", "ERROR"),
          fc.jsonValue(),
        ),
        state: fc.oneof(fc.constantFrom("PENDING", "SUCCESS", "revoked"), fc.jsonValue()),
        result: fc.jsonValue(),
        tasks: fc.jsonValue(),
        error: fc.jsonValue(),
        last_step: fc.jsonValue(),
        last_executed_task: fc.jsonValue(),
        pending_human_input: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything(), statusish), (body) => {
        const read = readRemoteStatus(body);
        expect(read.raw).toBe(body);
        expect(Array.isArray(read.tasks)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("readRemoteError", () => {
  it.each([
    [
      "CrewAI's {error, message}",
      { error: "Unauthorized", message: "Invalid bearer token" },
      "Unauthorized: Invalid bearer token",
    ],
    ["only message", { message: "Execution not found" }, "Execution not found"],
    ["only error", { error: "Not Found" }, "Not Found"],
    ["an error object", { error: { message: "Rate limited", type: "x" } }, "Rate limited"],
    [
      "an RFC 9457 problem",
      { type: "about:blank", title: "Unprocessable Entity", status: 422, detail: "Missing topic" },
      "Unprocessable Entity: Missing topic",
    ],
    ["a problem whose title is its detail", { title: "Gone", detail: "Gone" }, "Gone"],
    ["FastAPI's {detail}", { detail: "Not authenticated" }, "Not authenticated"],
    [
      "FastAPI's validation list",
      { detail: [{ loc: ["body", "inputs"], msg: "field required" }, { msg: "bad type" }] },
      "field required; bad type",
    ],
    ["a plain string body", "Service Unavailable\n", "Service Unavailable"],
    ["a JSON body read as text", '{"error":"Bad","message":"Worse"}', "Bad: Worse"],
    ["an HTML page", "<html><title>502</title></html>", "HTTP 502"],
    ["an empty string", "  ", "HTTP 502"],
    ["null", null, "HTTP 502"],
    ["an array", ["x"], "HTTP 502"],
    ["an object without a reason", { ok: false }, "HTTP 502"],
  ])("%s", (_, body, want) => {
    expect(readRemoteError(502, body)).toBe(want);
  });

  it("keeps the reason to one line of at most 300 characters", () => {
    const reason = readRemoteError(500, { message: `line one\nline two ${"x".repeat(400)}` });
    expect(reason).toHaveLength(300);
    expect(reason.startsWith("line one line two x")).toBe(true);
    expect(reason.endsWith("…")).toBe(true);
  });

  it("never throws", () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.anything(), (status, body) => {
        expect(readRemoteError(status, body).length).toBeLessThanOrEqual(300);
      }),
    );
  });
});
