import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, crewClient, expectProblem, type Json } from "../support/api";
import { type FakeOpenAI, startFakeOpenAI } from "../support/fake-openai";
import { type Proc, startServer, TEST_CREW_TOKEN, tempDir } from "../support/harness";

// Edit before approve: `edited_output` on /resume. The edit becomes the task's output for the
// tasks after it; the decision keeps the original, the edit and their diff.
const CREWS: Record<string, string> = {
  // The draft is reviewed; the summary is written by a model on a loopback server, which records
  // the prompt it was given.
  edited: `
agents:
  drafter: { role: Drafter, goal: "Draft on {subject}", backstory: Quick., llm: offline }
  summarizer: { role: Summarizer, goal: Summarize, backstory: Short., llm: openai/plain-answer }
tasks:
  draft:
    description: "Draft a note on {subject}"
    expected_output: A note
    agent: drafter
    human_input: true
    output_file: "draft-{subject}.md"
  summary:
    description: Summarize the note
    expected_output: One line
    agent: summarizer
`,
  structured: `
agents:
  a: { role: Rater, goal: "Rate {subject}", backstory: Fair., llm: offline }
tasks:
  rate:
    description: "Rate {subject}"
    expected_output: A rating
    agent: a
    human_input: true
    output_json:
      type: object
      properties: { score: { type: integer, minimum: 1, maximum: 5 } }
      required: [score]
`,
};

let server: Proc & { url: string };
let openai: FakeOpenAI;

beforeAll(async () => {
  openai = await startFakeOpenAI();
  const dir = tempDir("edit-crews");
  for (const [slug, yaml] of Object.entries(CREWS)) {
    fs.mkdirSync(path.join(dir, slug));
    fs.writeFileSync(path.join(dir, slug, "crew.yaml"), yaml);
  }
  server = await startServer({
    CREWS_DIR: dir,
    DATA_DIR: tempDir("edit"),
    CREW_TOKEN: TEST_CREW_TOKEN,
    OPENAI_BASE_URL: openai.url,
    OPENAI_API_KEY: "test-key",
    OFFLINE_MODEL_DELAY_MS: "0",
    WORKER_POLL_MS: "100",
  });
}, 60_000);
afterAll(async () => {
  await server?.kill();
  await openai?.close();
});

const paused = (s: Json) => s.status === "pending_human_input";

describe("edit before approve", () => {
  it("the edited output is the task's output for the next task; the decision keeps both", async () => {
    const crew = crewClient(server.url, "edited", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "herons" });
    const before = await crew.waitFor(id, paused);
    const original = before.pending_human_input.output as string;
    const edited = "Herons stand still for hours. (Edited by the reviewer.)";

    // An edit comes with an approval, never with a send-back.
    const sendBack = await crew.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "x",
      is_approve: false,
      edited_output: edited,
    });
    expectProblem(sendBack, 400);
    expect(sendBack.json.errors).toEqual([
      { path: "edited_output", message: "only with is_approve: true" },
    ]);

    const r = await crew.resume({
      execution_id: id,
      task_id: "draft",
      human_feedback: "Tightened it.",
      is_approve: true,
      edited_output: edited,
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe("resumed");
    const done = await crew.waitFor(id, (s) => s.status === "completed");
    expect(done.tasks[0].output).toBe(edited);
    // Who edited it, and the agent's own output, stay on the task.
    expect(done.tasks[0].edited_by).toEqual(expect.any(String));
    expect(done.tasks[0].agent_output).toBe(original);
    expect(done.tasks[1].edited_by).toBeUndefined();

    // The summarizer's model was given the edited draft, not the agent's.
    const prompt = JSON.stringify(openai.requests.at(-1)?.body.messages);
    expect(prompt).toContain("Herons stand still for hours. (Edited by the reviewer.)");
    expect(prompt).not.toContain(original.split("\n")[0]);

    // The decision: original, edit and a unified diff between them.
    const events = (await crew.events(id)).json.events as Json[];
    const decision = events.find((e) => e.type === "review_submitted");
    expect(decision.data).toMatchObject({
      decision: "approve",
      edited: true,
      edited_output: edited,
    });
    expect(decision.data.diff).toContain(`+${edited}`);
    expect(decision.data.diff).toContain("--- draft\tagent");
    const completed = events.find((e) => e.type === "task_completed" && e.task_id === "draft");
    expect(completed.data).toMatchObject({ output: edited, edited: true, reviewed: true });

    // The task's file holds the edit too.
    const file = await call(
      server.url,
      "GET",
      `/api/crews/edited/executions/${id}/artifacts/draft-herons.md`,
      { token: TEST_CREW_TOKEN },
    );
    expect(file.text).toBe(edited);
  });

  it("a structured output is edited as JSON matching its schema", async () => {
    const crew = crewClient(server.url, "structured", TEST_CREW_TOKEN);
    const id = await crew.start({ subject: "kelp" });
    await crew.waitFor(id, paused);
    const approve = (edited_output: string) =>
      crew.resume({
        execution_id: id,
        task_id: "rate",
        human_feedback: "",
        is_approve: true,
        edited_output,
      });

    const notJson = await approve("five stars");
    expectProblem(notJson, 422);
    expect(notJson.json.detail).toMatch(/must be JSON matching its output_json schema/);
    const outOfRange = await approve('{"score": 9}');
    expectProblem(outOfRange, 422);
    expect(outOfRange.json.errors[0].path).toBe("edited_output");
    // Refused edits change nothing: still awaiting review, with the agent's output.
    expect((await crew.status(id)).json.status).toBe("pending_human_input");

    const ok = await approve('{"score": 4}');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.status).toBe("completed");
    const done = (await crew.status(id)).json;
    expect(JSON.parse(done.result)).toEqual({ score: 4 });
  });
});
