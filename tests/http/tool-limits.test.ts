import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, crewClient, type Json } from "../support/api";
import { type Proc, startServer, TEST_CREW_TOKEN, tempDir } from "../support/harness";

// Per-call limits, end to end: a result longer than TOOL_RESULT_MAX_CHARS is cut in the event
// log (and for the model) and kept whole as a run file; calls beyond the task's cap are refused.
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
};

let server: Proc & { url: string };
let serverEnv: Record<string, string>;

beforeAll(async () => {
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
  };
  server = await startServer(serverEnv);
}, 60_000);
afterAll(async () => {
  await server?.kill();
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
