import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { coerceInput, isIsoDate } from "@/lib/crew/coerce-input";
import { InputBlockError, parseInputBlock } from "@/lib/crew/input-block";
import { InputSchema, type InputSpec, toInputSchema } from "@/lib/crew/input-schema";
import { loadCrews } from "@/lib/crew/load-crews";
import { checkInputs, inputSpecsOf } from "@/lib/crew/validate-inputs";

// The `inputs:` block of a crew: parsing (with messages that name the input), the JSON Schema
// GET /inputs publishes, and kickoff's checking and coercion.

function blockError(block: unknown) {
  try {
    parseInputBlock(block);
  } catch (err) {
    if (err instanceof InputBlockError) return { key: err.key, message: err.message };
    throw err;
  }
  throw new Error("parsed without an error");
}

describe("parseInputBlock", () => {
  it("is undefined without a block", () => {
    expect(parseInputBlock(undefined)).toBeUndefined();
  });

  it("reads every field, in the order written", () => {
    const specs = parseInputBlock({
      topic: { type: "string", description: "What to research", example: "Heat pumps" },
      depth: { type: "enum", options: ["quick", "thorough"], default: "quick" },
      words: { type: "number", default: "300" },
      draft_only: "boolean",
      due: { type: "date", required: false },
      notes: { type: "text", title: "Notes for the writer" },
      extra: { type: "json", default: { a: 1 } },
      plain: null,
    });
    expect(specs?.map((s) => s.name)).toEqual([
      "topic",
      "depth",
      "words",
      "draft_only",
      "due",
      "notes",
      "extra",
      "plain",
    ]);
    const by = Object.fromEntries((specs ?? []).map((s) => [s.name, s]));
    expect(by.topic).toEqual({
      name: "topic",
      type: "string",
      title: "Topic",
      description: "What to research",
      required: true,
      example: "Heat pumps",
      declared: true,
    });
    expect(by.depth).toMatchObject({ options: ["quick", "thorough"], default: "quick" });
    expect(by.depth?.required).toBe(false); // a default makes it optional
    expect(by.words).toMatchObject({ default: 300, required: false });
    expect(by.draft_only).toMatchObject({ type: "boolean", title: "Draft only", required: true });
    expect(by.due).toMatchObject({ type: "date", required: false });
    expect(by.notes?.title).toBe("Notes for the writer");
    expect(by.extra?.default).toBe('{"a":1}');
    expect(by.plain).toMatchObject({ type: "string", required: true });
  });

  it("keeps an explicit required: true next to a default", () => {
    expect(parseInputBlock({ a: { default: "x", required: true } })?.[0]?.required).toBe(true);
  });

  it.each([
    { name: "not a map", block: ["topic"], key: "inputs", message: /must be a map/ },
    {
      name: "a bad input name",
      block: { "1st": "string" },
      key: "inputs.1st",
      message: /input '1st': input names are/,
    },
    {
      name: "an unknown type",
      block: { topic: { type: "str" } },
      key: "inputs.topic.type",
      message:
        /input 'topic': type must be one of string, text, number, boolean, enum, date, json \(got 'str'\)/,
    },
    {
      name: "an unknown key",
      block: { topic: { defualt: "x" } },
      key: "inputs.topic.defualt",
      message: /input 'topic': unknown key 'defualt'/,
    },
    {
      name: "a list instead of a map",
      block: { topic: [1] },
      key: "inputs.topic",
      message: /input 'topic': must be a type name or a map/,
    },
    {
      name: "enum without options",
      block: { depth: { type: "enum" } },
      key: "inputs.depth.options",
      message: /input 'depth': type enum needs options/,
    },
    {
      name: "options on a string",
      block: { depth: { options: ["a"] } },
      key: "inputs.depth.options",
      message: /options are only for type enum/,
    },
    {
      name: "a duplicate option",
      block: { depth: { type: "enum", options: ["a", "a"] } },
      key: "inputs.depth.options",
      message: /option 'a' is listed twice/,
    },
    {
      name: "a default outside the options",
      block: { depth: { type: "enum", options: ["quick"], default: "deep" } },
      key: "inputs.depth.default",
      message: /input 'depth': default 'deep' must be one of: quick/,
    },
    {
      name: "a default that is not a number",
      block: { words: { type: "number", default: "many" } },
      key: "inputs.words.default",
      message: /input 'words': default 'many' must be a number/,
    },
    {
      name: "an example that is not a date",
      block: { due: { type: "date", example: "2024-02-30" } },
      key: "inputs.due.example",
      message: /must be a date written YYYY-MM-DD/,
    },
    {
      name: "a default that is not JSON",
      block: { extra: { type: "json", default: "{nope" } },
      key: "inputs.extra.default",
      message: /must be valid JSON/,
    },
    {
      name: "required that is not a boolean",
      block: { topic: { required: "yes" } },
      key: "inputs.topic.required",
      message: /required must be true or false/,
    },
    {
      name: "a description that is not a string",
      block: { topic: { description: 3 } },
      key: "inputs.topic.description",
      message: /description must be a string/,
    },
  ])("fails on $name", ({ block, key, message }) => {
    const err = blockError(block);
    expect(err.key).toBe(key);
    expect(err.message).toMatch(message);
  });
});

describe("coerceInput", () => {
  const spec = (type: InputSpec["type"], options?: string[]): InputSpec => ({
    name: "x",
    type,
    title: "X",
    description: null,
    required: true,
    declared: true,
    ...(options ? { options } : {}),
  });
  it.each([
    { type: "string", raw: "a", want: "a" },
    { type: "string", raw: 3, want: "3" },
    { type: "text", raw: "line 1\nline 2", want: "line 1\nline 2" },
    { type: "number", raw: 3.5, want: 3.5 },
    { type: "number", raw: " 42 ", want: 42 },
    { type: "number", raw: "-1e3", want: -1000 },
    { type: "boolean", raw: true, want: true },
    { type: "boolean", raw: "false", want: false },
    { type: "boolean", raw: "TRUE", want: true },
    { type: "date", raw: "2024-02-29", want: "2024-02-29" },
    { type: "json", raw: '{"a": [1, 2]}', want: '{"a":[1,2]}' },
    { type: "json", raw: { a: [1, 2] }, want: '{"a":[1,2]}' },
    { type: "json", raw: [true], want: "[true]" },
    { type: "json", raw: 5, want: "5" },
  ] as const)("$type from $raw", ({ type, raw, want }) => {
    expect(coerceInput(spec(type), raw)).toEqual({ ok: true, value: want });
  });

  it.each([
    { type: "number", raw: "12 apples", message: "must be a number" },
    { type: "number", raw: "0x10", message: "must be a number" },
    { type: "number", raw: true, message: "must be a number" },
    { type: "boolean", raw: "yes", message: "must be true or false" },
    { type: "boolean", raw: 1, message: "must be true or false" },
    { type: "date", raw: "2023-02-29", message: "must be a date written YYYY-MM-DD" },
    { type: "date", raw: "01/02/2024", message: "must be a date written YYYY-MM-DD" },
    { type: "json", raw: "{a:1}", message: expect.stringMatching(/^must be valid JSON/) },
    { type: "string", raw: { a: 1 }, message: "must be a string" },
  ] as const)("$type refuses $raw", ({ type, raw, message }) => {
    expect(coerceInput(spec(type), raw)).toEqual({ ok: false, message });
  });

  it("checks enum membership", () => {
    const s = spec("enum", ["1", "two"]);
    expect(coerceInput(s, 1)).toEqual({ ok: true, value: "1" });
    expect(coerceInput(s, "three")).toEqual({ ok: false, message: "must be one of: 1, two" });
  });

  it("knows calendar days", () => {
    expect(isIsoDate("2024-12-31")).toBe(true);
    expect(isIsoDate("2024-13-01")).toBe(false);
    expect(isIsoDate("2024-04-31")).toBe(false);
  });
});

describe("toInputSchema", () => {
  it("describes each input as JSON Schema with its control, in order", () => {
    const specs = parseInputBlock({
      topic: { description: "What to research", example: "Heat pumps" },
      depth: { type: "enum", options: ["quick", "thorough"], default: "quick" },
      words: { type: "number" },
      draft_only: { type: "boolean", default: false },
      due: { type: "date", required: false },
      notes: "text",
      extra: "json",
    });
    const schema = toInputSchema(specs ?? []);
    expect(InputSchema.parse(schema)).toEqual(schema);
    expect(schema).toEqual({
      type: "object",
      properties: {
        topic: {
          type: "string",
          title: "Topic",
          description: "What to research",
          examples: ["Heat pumps"],
          "x-control": "text",
        },
        depth: {
          type: "string",
          title: "Depth",
          default: "quick",
          enum: ["quick", "thorough"],
          "x-control": "select",
        },
        words: { type: "number", title: "Words", "x-control": "number" },
        draft_only: {
          type: "boolean",
          title: "Draft only",
          default: false,
          "x-control": "checkbox",
        },
        due: { type: "string", title: "Due", format: "date", "x-control": "date" },
        notes: { type: "string", title: "Notes", "x-control": "textarea" },
        extra: {
          type: "string",
          title: "Extra",
          contentMediaType: "application/json",
          "x-control": "json",
        },
      },
      required: ["topic", "words", "notes", "extra"],
      "x-order": ["topic", "depth", "words", "draft_only", "due", "notes", "extra"],
    });
  });
});

describe("checkInputs", () => {
  const specs = parseInputBlock({
    words: { type: "number" },
    depth: { type: "enum", options: ["quick", "thorough"], default: "quick" },
    draft_only: { type: "boolean", required: false },
    due: { type: "date", required: false },
    extra: { type: "json", required: false },
  }) as InputSpec[];
  const all = [...specs, ...inputSpecsOf({ inputs: ["topic"] })];

  it("coerces, fills defaults and empties, keeps bare placeholders as given", () => {
    expect(checkInputs(all, { words: "300", topic: 7, unused: "ignored" })).toEqual({
      values: { words: 300, depth: "quick", draft_only: false, due: "", extra: "", topic: 7 },
      missing: [],
      invalid: [],
      malformed: [],
    });
  });

  it("names every missing and every invalid input", () => {
    const r = checkInputs(all, { depth: "deep", due: "tomorrow", extra: "{", topic: "" });
    expect(r.missing).toEqual(["words", "topic"]);
    expect(r.invalid).toEqual([
      { path: "inputs.depth", message: "must be one of: quick, thorough" },
      { path: "inputs.due", message: "must be a date written YYYY-MM-DD" },
      { path: "inputs.extra", message: expect.stringMatching(/^must be valid JSON/) },
    ]);
  });

  it("takes a JSON value for a json input, and refuses one for another declared type", () => {
    const r = checkInputs(all, { words: [1], topic: { a: 1 }, extra: { a: 1 }, other: [1] });
    expect(r.values.extra).toBe('{"a":1}');
    // A bare placeholder takes a list or an object as CrewAI does, as its JSON; `other` is no
    // input of this crew and is ignored, as CrewAI ignores extra inputs.
    expect(r.values.topic).toBe('{"a":1}');
    expect(r.malformed.map((e) => e.path)).toEqual(["inputs.words"]);
  });

  it("treats a crew without a block as before: required strings", () => {
    const bare = inputSpecsOf({ inputs: ["a", "b"] });
    expect(checkInputs(bare, { a: "x", b: null })).toMatchObject({
      values: { a: "x" },
      missing: ["b"],
    });
    expect(toInputSchema(bare).required).toEqual(["a", "b"]);
  });
});

describe("loadCrews with inputs", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  });
  function load(files: Record<string, string>) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-typed-"));
    made.push(dir);
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    return loadCrews(dir);
  }
  const CREW = `
agents:
  a: { role: "R {topic}", goal: "G {words}", backstory: "B {tone}" }
tasks:
  t: { description: "D", expected_output: "E", agent: a }
`;

  it("puts declared inputs first, then undeclared placeholders, and warns on unused ones", () => {
    const c = load({
      "x/crew.yaml": `${CREW}inputs:\n  words: { type: number, default: 200 }\n  topic: text\n  unused: string\n`,
    });
    const crew = c.crews.get("x");
    expect(crew?.inputs).toEqual(["words", "topic", "unused", "tone"]);
    expect(crew?.input_specs?.map((s) => [s.name, s.type, s.declared])).toEqual([
      ["words", "number", true],
      ["topic", "text", true],
      ["unused", "string", true],
      ["tone", "string", false],
    ]);
    expect(c.warnings).toEqual([
      {
        slug: "x",
        file: "x/crew.yaml",
        key: "inputs.unused",
        message: "declared, but no {placeholder} uses it",
      },
    ]);
  });

  it("keeps a crew without a block exactly as before", () => {
    const crew = load({ "x/crew.yaml": CREW }).crews.get("x");
    expect(crew?.inputs).toEqual(["topic", "words", "tone"]);
    expect(crew?.input_specs).toBeUndefined();
  });

  it("fails the crew's load naming the input, and serves the others", () => {
    const c = load({
      "bad/crew.yaml": `${CREW}inputs:\n  words: { type: number, default: lots }\n`,
      "good/crew.yaml": CREW,
    });
    expect([...c.crews.keys()]).toEqual(["good"]);
    expect(c.errors).toEqual([
      {
        slug: "bad",
        file: "bad/crew.yaml",
        key: "inputs.words.default",
        reason: "input 'words': default 'lots' must be a number",
      },
    ]);
  });

  it("reads config/inputs.yaml in CrewAI's layout", () => {
    const c = load({
      "y/config/agents.yaml": `a: { role: "R {company}", goal: G, backstory: B }\n`,
      "y/config/tasks.yaml": `t: { description: "D {year}", expected_output: E, agent: a }\n`,
      "y/config/inputs.yaml": `year: { type: number, example: 2024 }\n`,
    });
    expect(c.errors).toEqual([]);
    expect(c.crews.get("y")?.input_specs?.map((s) => [s.name, s.type])).toEqual([
      ["year", "number"],
      ["company", "string"],
    ]);
  });
});
