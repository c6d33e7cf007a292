import type { LanguageModelV3ToolCall } from "@ai-sdk/provider";
import { InvalidToolInputError, NoSuchToolError, type Tool, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { approvalNeeded, describeTools, readToolCall, runTool } from "@/lib/engine/tool-calls";

// How the engine reads a model's tool call, decides whether it waits for a person, and runs it:
// what the model sent is never trusted, and a tool's own rules are kept.

const search = tool({
  description: "Search the notes",
  inputSchema: z.object({ query: z.string(), limit: z.number().int().optional() }),
  execute: async (input) => `found ${input.query}`,
});
const clock = tool({
  description: "The time",
  inputSchema: z.object({}),
  execute: async () => "noon",
});
const tools: Record<string, Tool> = { search, clock };

const callOf = (toolName: string, input: string): LanguageModelV3ToolCall => ({
  type: "tool-call",
  toolCallId: "call-1",
  toolName,
  input,
});
const noMessages = { messages: [], responseMessages: [] };
const signal = new AbortController().signal;

describe("reading a tool call", () => {
  it("checks the input against the tool's schema and keeps the parsed value", async () => {
    const read = await readToolCall(callOf("search", '{"query":"lease","limit":3}'), tools);
    expect(read.error).toBeUndefined();
    expect(read.call).toEqual({
      toolCallId: "call-1",
      toolName: "search",
      input: { query: "lease", limit: 3 },
    });
  });

  it("reads an empty input as no arguments, as models send for a tool without any", async () => {
    for (const input of ["", "  "]) {
      const read = await readToolCall(callOf("clock", input), tools);
      expect(read.error).toBeUndefined();
      expect(read.call.input).toEqual({});
    }
  });

  it("answers input that is not JSON with the tool's input error, keeping the text", async () => {
    const read = await readToolCall(callOf("search", '{"query": "lease"'), tools);
    expect(read.error).toBeInstanceOf(InvalidToolInputError);
    expect((read.error as InvalidToolInputError).toolInput).toBe('{"query": "lease"');
    expect((read.error as InvalidToolInputError).toolName).toBe("search");
    expect(read.call.input).toBe('{"query": "lease"');
  });

  it("answers input the schema refuses with the tool's input error, naming the value", async () => {
    const read = await readToolCall(callOf("search", '{"query": 7}'), tools);
    expect(read.error).toBeInstanceOf(InvalidToolInputError);
    const cause = (read.error as InvalidToolInputError).cause as { value?: unknown };
    expect(cause.value).toEqual({ query: 7 });
  });

  it("refuses a tool the agent does not have, and names of every object", async () => {
    for (const name of ["delete_all", "constructor", "toString", "__proto__"]) {
      const read = await readToolCall(callOf(name, "{}"), tools);
      expect(read.error, name).toBeInstanceOf(NoSuchToolError);
      expect((read.error as NoSuchToolError).availableTools).toEqual(["search", "clock"]);
    }
  });

  it.each([
    ['{"query":"x","__proto__":{"admin":true}}', "an own __proto__ key"],
    ['{"query":"x","\\u005f_proto__":{"admin":true}}', "__proto__ spelt with an escape"],
    [
      '{"query":"x","nested":[{"constructor":{"prototype":{"admin":true}}}]}',
      "a nested constructor",
    ],
  ])("refuses input with prototype keys: %s (%s)", async (input) => {
    const read = await readToolCall(callOf("search", input), tools);
    expect(read.error).toBeInstanceOf(InvalidToolInputError);
    expect(String((read.error as InvalidToolInputError).cause)).toMatch(/forbidden prototype/);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("lets through keys that only look like them", async () => {
    const input = '{"query":"constructor","limit":1,"note":{"constructor":"a string"}}';
    const loose = tool({
      inputSchema: z.looseObject({ query: z.string() }),
      execute: async () => 1,
    });
    const read = await readToolCall(callOf("loose", input), { loose });
    expect(read.error).toBeUndefined();
    expect(read.call.input).toEqual(JSON.parse(input));
  });
});

describe("approval", () => {
  const call = { toolCallId: "call-1", toolName: "search", input: { query: "secret" } };

  it("follows a tool's yes or no, and asks nothing of a tool without a rule", async () => {
    expect(await approvalNeeded({ ...search, needsApproval: true }, call, noMessages)).toBe(true);
    expect(await approvalNeeded({ ...search, needsApproval: false }, call, noMessages)).toBe(false);
    expect(await approvalNeeded(search, call, noMessages)).toBe(false);
    expect(await approvalNeeded(undefined, call, noMessages)).toBe(false);
  });

  it("asks a tool's rule with the call's input and the conversation so far", async () => {
    const seen: unknown[] = [];
    const guarded = {
      ...search,
      needsApproval: async (input: { query: string }, options: { messages: unknown[] }) => {
        seen.push(input, options.messages.length);
        return input.query === "secret";
      },
    } as Tool;
    const messages = { messages: [{ role: "user" as const, content: "hi" }], responseMessages: [] };
    expect(await approvalNeeded(guarded, call, messages)).toBe(true);
    expect(await approvalNeeded(guarded, { ...call, input: { query: "weather" } }, messages)).toBe(
      false,
    );
    expect(seen).toEqual([{ query: "secret" }, 1, { query: "weather" }, 1]);
  });
});

describe("running a tool", () => {
  const call = { toolCallId: "call-1", toolName: "search", input: { query: "lease" } };

  it("returns the tool's result with the call's id", async () => {
    expect(await runTool(search, call, [], signal)).toEqual({
      type: "tool-result",
      toolCallId: "call-1",
      toolName: "search",
      output: "found lease",
    });
  });

  it("takes a streaming tool's last value as its result", async () => {
    const streaming = tool({
      inputSchema: z.object({}),
      async *execute() {
        yield "working";
        yield "half way";
        yield "done";
      },
    });
    const out = await runTool(streaming, call, [], signal);
    expect(out).toMatchObject({ type: "tool-result", output: "done" });
  });

  it("returns an object result as it is", async () => {
    const record = tool({ inputSchema: z.object({}), execute: async () => ({ rows: 2 }) });
    expect(await runTool(record, call, [], signal)).toMatchObject({ output: { rows: 2 } });
  });

  it("turns a tool that throws, or one that cannot run, into the call's error", async () => {
    const failing = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("quota spent");
      },
    });
    expect(await runTool(failing, call, [], signal)).toMatchObject({
      type: "tool-error",
      toolCallId: "call-1",
      error: new Error("quota spent"),
    });
    const described = tool({ inputSchema: z.object({}) });
    for (const t of [described, undefined]) {
      const out = await runTool(t, call, [], signal);
      expect(out.type).toBe("tool-error");
      expect(out.type === "tool-error" && out.error).toBeInstanceOf(NoSuchToolError);
    }
  });

  it("gives the tool the call's id, the conversation and the stop signal", async () => {
    let options: unknown;
    const spy = tool({
      inputSchema: z.object({}),
      execute: async (_input, o) => {
        options = o;
        return null;
      },
    });
    const messages = [{ role: "user" as const, content: "hi" }];
    await runTool(spy, call, messages, signal);
    expect(options).toEqual({ toolCallId: "call-1", messages, abortSignal: signal });
  });
});

describe("the tools as the model reads them", () => {
  it("names each tool by its key, with its description, schema and options", async () => {
    const strict = tool({
      description: "Strict search",
      inputSchema: z.object({ query: z.string() }),
      strict: true,
      inputExamples: [{ input: { query: "lease" } }],
      providerOptions: { openai: { parallel: false } },
    });
    const [plain, withOptions] = await describeTools({ search, strict });
    expect(plain).toMatchObject({
      type: "function",
      name: "search",
      description: "Search the notes",
    });
    expect(plain).not.toHaveProperty("strict");
    expect(plain).not.toHaveProperty("inputExamples");
    expect(plain).not.toHaveProperty("providerOptions");
    expect(plain?.inputSchema).toMatchObject({
      type: "object",
      properties: { query: { type: "string" } },
      required: ["query"],
    });
    expect(withOptions).toMatchObject({
      name: "strict",
      strict: true,
      inputExamples: [{ input: { query: "lease" } }],
      providerOptions: { openai: { parallel: false } },
    });
  });

  it("names one tool object by each key it is given under", async () => {
    expect((await describeTools({ search })).map((d) => d.name)).toEqual(["search"]);
    expect((await describeTools({ find: search })).map((d) => d.name)).toEqual(["find"]);
  });
});
