import { describe, expect, inject, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// Approval gates on tools: the gated-tools fixture's agent has `requires_approval: [word_count]`.
// The offline model calls word_count, then current_date, then answers; the run stops before
// word_count runs, with its exact arguments, until a person decides.
const baseUrl = inject("baseUrl");
const crew = crewClient(baseUrl, "gated-tools", TEST_CREW_TOKEN);
const paused = (s: Json) => s.status === "pending_human_input";
const events = async (id: string, slug = "gated-tools") =>
  (await crewClient(baseUrl, slug, TEST_CREW_TOKEN).events(id)).json.events as Json[];

async function pausedRun(subject: string) {
  const id = await crew.start({ subject });
  const status = await crew.waitFor(id, paused);
  return {
    id,
    status,
    review: status.pending_human_inputs[0],
    call: status.pending_human_inputs[0].tool_calls[0],
  };
}

describe("approval gates on tools", () => {
  it("pauses before the gated call with its exact arguments; nothing has run", async () => {
    const { id, review, call: gated } = await pausedRun("kites");
    expect(review).toMatchObject({
      task_id: "check",
      kind: "tool_call",
      required_approvals: 1,
    });
    expect(gated).toMatchObject({
      tool: "word_count",
      source: "builtin",
      writes: false,
      decision: null,
      call_id: expect.any(String),
    });
    expect(gated.arguments.text).toContain("kites");
    expect(gated.input_schema).toMatchObject({ type: "object", required: ["text"] });
    expect(review.output).toContain("`word_count`");

    const log = await events(id);
    const asked = log.find((e) => e.type === "tool_call" && e.data.tool === "word_count");
    expect(asked.data).toMatchObject({ needs_approval: true, call_id: gated.call_id });
    expect(log.some((e) => e.type === "tool_result" && e.data.tool === "word_count")).toBe(false);
    const requested = log.find((e) => e.type === "review_requested");
    expect(requested.data).toMatchObject({
      kind: "tool_call",
      tool_calls: [{ call_id: gated.call_id, tool: "word_count", arguments: gated.arguments }],
    });
    await crew.stop(id);
  });

  it("an edit is checked against the tool's schema; the call runs with the edited arguments", async () => {
    const { id, call: gated } = await pausedRun("gliders");
    const resume = (body: Record<string, unknown>) =>
      crew.resume({ execution_id: id, task_id: "check", human_feedback: "", ...body });

    expectProblem(await resume({ is_approve: false, edited_arguments: { text: "x" } }), 400);
    const wrongType = await resume({ is_approve: true, edited_arguments: { text: 42 } });
    expectProblem(wrongType, 422);
    expect(wrongType.json.detail).toContain("word_count");
    expectProblem(await resume({ is_approve: true, call_id: "no-such-call" }), 404);
    expectProblem(
      await resume({ is_approve: true, edited_output: "text", call_id: gated.call_id }),
      400,
    );

    const r = await resume({
      is_approve: true,
      call_id: gated.call_id,
      edited_arguments: { text: "one two three" },
      human_feedback: "Measure the final draft instead.",
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe("resumed");
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.tasks[0].attempts).toBe(1);

    const log = await events(id);
    const result = log.find((e) => e.type === "tool_result" && e.data.tool === "word_count");
    expect(result.data.call_id).toBe(gated.call_id);
    expect(result.data.result).toMatchObject({ words: 3 });
    const decision = log.find((e) => e.type === "review_submitted");
    expect(decision.data).toMatchObject({
      kind: "tool_call",
      call_id: gated.call_id,
      effect: "approved",
      edited: true,
      arguments: gated.arguments,
      edited_arguments: { text: "one two three" },
    });
    // The same attempt goes on (no second task_started attempt), and the other tool still ran.
    const starts = log.filter((e) => e.type === "task_started");
    expect(starts.map((e) => e.attempt)).toEqual([1, 1]);
    expect(starts[1].data).toMatchObject({ continued: true });
    expect(log.some((e) => e.type === "tool_result" && e.data.tool === "current_date")).toBe(true);
  });

  it("a refusal's reason is the call's result; the agent goes on without it", async () => {
    const { id, call: gated } = await pausedRun("sails");
    const refuse = {
      execution_id: id,
      task_id: "check",
      is_approve: false,
      human_feedback: "No counting today.",
    };
    const r = await crew.resume(refuse);
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe("resumed");
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.result).toContain("Refused by the reviewer: No counting today.");

    const log = await events(id);
    const result = log.find((e) => e.type === "tool_result" && e.data.tool === "word_count");
    expect(result.data).toMatchObject({
      call_id: gated.call_id,
      is_error: true,
      result: { refused: true, reason: "No counting today." },
    });
    expect(log.some((e) => e.type === "tool_result" && e.data.tool === "current_date")).toBe(true);
    // A refused call never becomes a send-back: one attempt, no reviews of the output.
    expect(done.tasks[0].attempts).toBe(1);

    // The same decision again is answered, not applied twice; a different one is a conflict.
    const again = await crew.resume({ ...refuse, call_id: gated.call_id });
    expect(again.status, again.text).toBe(200);
    expect(again.json.message).toContain("Already applied");
    expectProblem(await crew.resume({ ...refuse, call_id: gated.call_id, is_approve: true }), 409);
  });

  it("a CrewAI client's plain approval runs the call as the model asked", async () => {
    const { id, call: gated } = await pausedRun("lanterns");
    const r = await crew.resume({
      execution_id: id,
      task_id: "check",
      is_approve: true,
      human_feedback: "",
    });
    expect(r.status, r.text).toBe(200);
    await crew.waitFor(id, (s) => s.status === "completed");
    const log = await events(id);
    const result = log.find((e) => e.type === "tool_result" && e.data.tool === "word_count");
    expect(result.data.result.words).toBe(gated.arguments.text.split(/\s+/).filter(Boolean).length);

    // The decision is in the run's audit ledger, which still verifies.
    const verify = await call(
      baseUrl,
      "GET",
      `/api/crews/gated-tools/executions/${id}/ledger/verify`,
      { token: TEST_CREW_TOKEN },
    );
    expect(verify.status, verify.text).toBe(200);
    expect(verify.json.ok).toBe(true);
  });
});

describe("requires_approval: writes", () => {
  const files = crewClient(baseUrl, "gated-files", TEST_CREW_TOKEN);

  it("stops before write_file (not list_directory); the approved edit is the file written", async () => {
    const id = await files.start({ subject: "tides" });
    const status = await files.waitFor(id, paused);
    const gated = status.pending_human_inputs[0].tool_calls as Json[];
    expect(gated.map((c) => [c.tool, c.writes])).toEqual([["write_file", true]]);
    expect(gated[0].arguments).toMatchObject({ filename: "notes.md" });

    const r = await files.resume({
      execution_id: id,
      task_id: "note",
      call_id: gated[0].call_id,
      is_approve: true,
      human_feedback: "",
      edited_arguments: { ...gated[0].arguments, content: "# Tides\n\nTwice a day." },
    });
    expect(r.status, r.text).toBe(200);
    await files.waitFor(id, (s) => s.status === "completed");
    const file = await call(
      baseUrl,
      "GET",
      `/api/crews/gated-files/executions/${id}/artifacts/workspace/notes.md`,
      { token: TEST_CREW_TOKEN },
    );
    expect(file.status, file.text).toBe(200);
    expect(file.text).toBe("# Tides\n\nTwice a day.");
    // The reading tool ran without asking.
    const log = await events(id, "gated-files");
    const listed = log.find((e) => e.type === "tool_call" && e.data.tool === "list_directory");
    expect(listed.data.needs_approval).toBeUndefined();
  });
});

describe("an MCP server's own requires_approval", () => {
  const mcp = crewClient(baseUrl, "mcp-gated", TEST_CREW_TOKEN);

  it("stops before its named tool only; the edited call goes to the real server", async () => {
    const id = await mcp.start({});
    const status = await mcp.waitFor(id, paused);
    const gated = status.pending_human_inputs[0].tool_calls as Json[];
    expect(gated).toHaveLength(1);
    expect(gated[0]).toMatchObject({
      tool: "everything_echo",
      source: "mcp",
      server: "everything",
    });
    expect(gated[0].input_schema.properties).toHaveProperty("message");

    const r = await mcp.resume({
      execution_id: id,
      task_id: "use_tools",
      call_id: gated[0].call_id,
      is_approve: true,
      human_feedback: "",
      edited_arguments: { message: "hello from the reviewer" },
    });
    expect(r.status, r.text).toBe(200);
    await mcp.waitFor(id, (s) => s.status === "completed", 60_000);
    const log = await events(id, "mcp-gated");
    const echoed = log.find((e) => e.type === "tool_result" && e.data.tool === "everything_echo");
    expect(JSON.stringify(echoed.data.result)).toContain("Echo: hello from the reviewer");
    const summed = log.find((e) => e.type === "tool_call" && e.data.tool === "everything_get-sum");
    expect(summed.data.needs_approval).toBeUndefined();
  }, 90_000);
});
