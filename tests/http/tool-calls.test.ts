import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { type Proc, startServer, TEST_CREW_TOKEN, tempDir } from "../support/harness";

// Tool calls end to end, on a server of the test's own: the per-call limits (a result longer than
// TOOL_RESULT_MAX_CHARS is cut in the event log and for the model, and kept whole as a run file;
// calls beyond the task's cap are refused), a paused call surviving a SIGKILL, and several gated
// calls in one turn of a model speaking OpenAI's wire format.
const CREWS: Record<string, string> = {
  limits: `
agents:
  counter:
    role: Counter
    goal: "Count {subject}"
    backstory: Exact.
    tools: [word_count, current_date]
    max_tool_calls: 1
tasks:
  count:
    description: "Count the words about {subject}"
    expected_output: A number
    agent: counter
`,
  gated: `
agents:
  counter:
    role: Counter
    goal: "Count {subject}"
    backstory: Exact.
    tools: [word_count]
    requires_approval: true
tasks:
  count:
    description: "Count the words about {subject}"
    expected_output: A number
    agent: counter
`,
  // A model on a loopback server speaking OpenAI's wire format asks for two calls at once.
  parallel: `
agents:
  counter:
    role: Counter
    goal: "Count {subject}"
    backstory: Exact.
    llm: openai/parallel-calls
    tools: [word_count]
    requires_approval: [word_count]
tasks:
  count:
    description: "Count the words about {subject}"
    expected_output: A number
    agent: counter
`,
};

let server: Proc & { url: string };
let serverEnv: Record<string, string>;
let openai: FakeOpenAI;

beforeAll(async () => {
  openai = await startFakeOpenAI();
  const dir = tempDir("limit-crews");
  for (const [slug, yaml] of Object.entries(CREWS)) {
    fs.mkdirSync(path.join(dir, slug));
    fs.writeFileSync(path.join(dir, slug, "crew.yaml"), yaml);
  }
  serverEnv = {
    CREWS_DIR: dir,
    DATA_DIR: tempDir("limits"),
    CREW_TOKEN: TEST_CREW_TOKEN,
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
    TOOL_RESULT_MAX_CHARS: "20",
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: "test-key",
  };
  server = await startServer(serverEnv);
}, 60_000);
afterAll(async () => {
  await server?.kill();
  await openai?.close();
});

describe("per-call limits", () => {
  it("cuts a long result in the log, keeps it whole as a file, and caps the calls", async () => {
    const crew = crewClient(server.url, "limits", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "otters" });
    await crew.waitFor(id, (s) => s.status === "completed");
    const events = (await crew.events(id)).json.events as Json[];
    const results = events.filter((e) => e.type === "tool_result");

    const counted = results.find((e) => e.data.tool === "word_count");
    expect(counted.data.result).toMatchObject({ truncated: true });
    expect(counted.data.result.preview).toHaveLength(20);
    expect(counted.data.result.note).toContain("only the first 20 are shown");
    const name = counted.data.full_result as string;
    expect(name).toBe(`tool-results/count/${counted.data.call_id}.json`);
    const file = await call(
      server.url,
      "GET",
      `/api/crews/limits/executions/${id}/artifacts/${name}`,
      { token: TEST_CREW_TOKEN },
    );
    expect(file.status, file.text).toBe(200);
    expect(JSON.parse(file.text)).toMatchObject({
      words: expect.any(Number),
      characters: expect.any(Number),
    });

    // max_tool_calls: 1 — the second tool's call is answered with the limit, not run.
    const dated = results.find((e) => e.data.tool === "current_date");
    expect(dated.data.result).toEqual({
      error: "Tool call limit reached: at most 1 tool call in one task. Answer with what you have.",
    });
  });
});

describe("a paused tool call outlives the process", () => {
  it("is approved after a SIGKILL and a restart, and the agent goes on from where it stopped", async () => {
    let crew = crewClient(server.url, "gated", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "badgers" });
    const paused = await crew.waitFor(id, (s) => s.status === "pending_human_input");
    const gated = paused.pending_human_inputs[0].tool_calls[0];

    await server.kill("SIGKILL");
    server = await startServer(serverEnv);
    crew = crewClient(server.url, "gated", TEST_CREW_TOKEN);
    const r = await crew.resume({
      execution_id: id,
      task_id: "count",
      call_id: gated.call_id,
      is_approve: true,
      human_feedback: "",
      edited_arguments: { text: "two words" },
    });
    expect(r.status, r.text).toBe(200);
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.tasks[0].attempts).toBe(1);
    const events = (await crew.events(id)).json.events as Json[];
    const result = events.find((e) => e.type === "tool_result" && e.data.tool === "word_count");
    expect(result.data.call_id).toBe(gated.call_id);
    expect(result.data.result.preview).toContain('"words":2');
  }, 90_000);
});

describe("several gated calls in one turn", () => {
  it("are decided one by one; the agent goes on once all are, each call answered", async () => {
    const crew = crewClient(server.url, "parallel", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "moles" });
    const paused = await crew.waitFor(id, (s) => s.status === "pending_human_input");
    const calls = paused.pending_human_inputs[0].tool_calls as Json[];
    expect(calls.map((c) => [c.call_id, c.arguments])).toEqual([
      ["call_a", { text: "alpha beta" }],
      ["call_b", { text: "gamma delta epsilon" }],
    ]);
    const resume = (body: Record<string, unknown>) =>
      crew.resume({ execution_id: id, task_id: "count", human_feedback: "", ...body });

    // An edit must say which call it is for.
    expectProblem(await resume({ is_approve: true, edited_arguments: { text: "x" } }), 422);

    const first = await resume({
      is_approve: true,
      call_id: "call_a",
      edited_arguments: { text: "one" },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.json.status).toBe("waiting");
    const still = await crew.waitFor(id, (s) => s.status === "pending_human_input");
    const decided = still.pending_human_inputs[0].tool_calls as Json[];
    expect(decided[0].decision).toMatchObject({
      approved: true,
      edited: true,
      arguments: { text: "one" },
    });
    expect(decided[1].decision).toBeNull();

    // Without call_id, the decision covers what is left: call_b, refused.
    const second = await resume({ is_approve: false, human_feedback: "Once is enough." });
    expect(second.status, second.text).toBe(200);
    expect(second.json.status).toBe("resumed");
    const done = await crew.waitFor(
      id,
      (s) => s.status !== "running" && s.status !== "pending_human_input",
    );
    expect(done.status, JSON.stringify(done.error)).toBe("completed");
    // The model got an answer for each call (its wire format refuses a turn without them).
    expect(done.result).toContain('call_a={"truncated":true');
    expect(done.result).toContain("call_b=Refused by the reviewer: Once is enough.");
  }, 60_000);
});
