import { describe, expect, inject, it } from "vitest";
import { crewClient, expectProblem, type Json } from "../support/api";
import { TEST_CREW_TOKEN } from "../support/harness";

// A crew that types its inputs (tests/fixtures/crews/typed-inputs): GET /inputs publishes a JSON
// Schema beside the names; kickoff converts what it can and names each input it cannot take.
const baseUrl = inject("baseUrl");
const typed = crewClient(baseUrl, "typed-inputs", TEST_CREW_TOKEN);
const brief = crewClient(baseUrl, "brief", TEST_CREW_TOKEN);

/** The inputs the execution was queued with (its first event). */
async function storedInputs(id: string) {
  const r = await typed.events(id);
  expect(r.status, r.text).toBe(200);
  const queued = (r.json.events as Json[]).find((e) => e.type === "execution_queued");
  return queued.data.inputs;
}

describe("GET /inputs of a typed crew", () => {
  it("keeps the names, declared ones first, and adds the JSON Schema", async () => {
    const r = await typed.inputs();
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      inputs: ["topic", "words", "tone", "draft_only", "due", "data", "audience"],
      input_schema: {
        type: "object",
        properties: {
          topic: {
            type: "string",
            title: "Topic",
            description: "What to write about.",
            examples: ["Tides"],
            "x-control": "textarea",
          },
          words: { type: "number", title: "Words", default: 100, "x-control": "number" },
          tone: {
            type: "string",
            title: "Tone",
            default: "plain",
            enum: ["plain", "warm"],
            "x-control": "select",
          },
          draft_only: { type: "boolean", title: "Draft only", "x-control": "checkbox" },
          due: { type: "string", title: "Due date", format: "date", "x-control": "date" },
          data: {
            type: "string",
            title: "Data",
            contentMediaType: "application/json",
            "x-control": "json",
          },
          audience: { type: "string", title: "Audience", "x-control": "text" },
        },
        required: ["topic", "audience"],
        "x-order": ["topic", "words", "tone", "draft_only", "due", "data", "audience"],
      },
    });
  });
});

describe("POST /kickoff of a typed crew", () => {
  it("converts strings to numbers, booleans and JSON, and fills defaults", async () => {
    const id = await typed.start({
      topic: "Tides",
      audience: "sailors",
      words: "250",
      draft_only: "true",
      due: "2026-12-01",
      data: '{ "ports": ["Brest", "Cork"] }',
    });
    expect(await storedInputs(id)).toEqual({
      topic: "Tides",
      words: 250,
      tone: "plain",
      draft_only: true,
      due: "2026-12-01",
      data: '{"ports":["Brest","Cork"]}',
      audience: "sailors",
    });
  });

  it("takes typed values and a JSON value for a json input; optional ones left out are empty", async () => {
    const id = await typed.start({
      topic: "Tides",
      audience: "sailors",
      words: 80,
      tone: "warm",
      data: { depth: 3 },
    });
    expect(await storedInputs(id)).toEqual({
      topic: "Tides",
      words: 80,
      tone: "warm",
      draft_only: false,
      due: "",
      data: '{"depth":3}',
      audience: "sailors",
    });
  });

  it("puts the converted values into the prompt", async () => {
    const id = await typed.start({ topic: "Tides", audience: "sailors", words: "42" });
    const s = await typed.waitFor(id, (x) => x.status === "completed");
    expect(JSON.stringify(s)).toContain("Write 42 words about Tides in a plain tone");
  });

  it("answers 422 naming each input it cannot take", async () => {
    const r = await typed.kickoff({
      inputs: {
        topic: "Tides",
        audience: "sailors",
        words: "many",
        tone: "loud",
        draft_only: "maybe",
        due: "2026-02-30",
        data: "{not json",
      },
    });
    expectProblem(r, 422);
    expect(r.json.missing_inputs).toBeUndefined();
    expect(r.json.errors).toEqual([
      { path: "inputs.words", message: "must be a number" },
      { path: "inputs.tone", message: "must be one of: plain, warm" },
      { path: "inputs.draft_only", message: "must be true or false" },
      { path: "inputs.due", message: "must be a date written YYYY-MM-DD" },
      { path: "inputs.data", message: expect.stringMatching(/^must be valid JSON/) },
    ]);
    expect(r.json.detail).toMatch(/Invalid inputs: words must be a number; tone must be one of/);
  });

  it("answers one 422 with missing_inputs and errors when both are wrong", async () => {
    const r = await typed.kickoff({ inputs: { words: true } });
    expectProblem(r, 422);
    expect(r.json.missing_inputs).toEqual(["topic", "audience"]);
    expect(r.json.errors).toEqual([{ path: "inputs.words", message: "must be a number" }]);
  });

  it("answers 400 for an object given to an input that is not json", async () => {
    const r = await typed.kickoff({ inputs: { topic: { a: 1 }, audience: "sailors" } });
    expectProblem(r, 400);
    expect(r.json.errors).toEqual([
      { path: "inputs.topic", message: "input values must be a string, a number or a boolean" },
    ]);
  });
});

describe("a crew without an inputs block is unchanged", () => {
  it("missing inputs: the 422 body CrewAI clients read too, with no errors member", async () => {
    const r = await brief.kickoff({ inputs: { topic: "a" } });
    expectProblem(r, 422);
    const detail = "Missing required inputs: audience. GET /inputs lists them.";
    expect(r.json).toEqual({
      type: expect.any(String),
      title: expect.any(String),
      status: 422,
      detail,
      error: "Validation Error",
      message: detail,
      missing_inputs: ["audience"],
      details: { missing_inputs: ["audience"] },
    });
  });

  it("any string, number or boolean is taken as given", async () => {
    const r = await brief.kickoff({ inputs: { topic: 42, audience: true } });
    expect(r.status, r.text).toBe(200);
    const events = (await brief.events(r.json.kickoff_id)).json.events as Json[];
    expect(events[0].data.inputs).toEqual({ topic: 42, audience: true });
  });

  it("a list or an object is taken as CrewAI takes it: interpolated as its JSON", async () => {
    const r = await brief.kickoff({
      inputs: { topic: ["kelp", "otters"], audience: { who: "divers" } },
    });
    expect(r.status, r.text).toBe(200);
    const events = (await brief.events(r.json.kickoff_id)).json.events as Json[];
    expect(events[0].data.inputs).toEqual({
      topic: '["kelp","otters"]',
      audience: '{"who":"divers"}',
    });
    const done = await brief.waitFor(r.json.kickoff_id, (s) => s.status === "completed");
    expect(done.result).toContain('["kelp","otters"]');
  });
});
