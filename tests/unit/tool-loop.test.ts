import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAnthropic } from "@ai-sdk/anthropic";
import { type ModelMessage, type Tool, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AgentStep, runAgent, ToolApprovalNeeded } from "@/lib/engine/run-agent";
import { toolLoop } from "@/lib/engine/tool-loop";

// The engine's tool loop against a loopback server speaking Anthropic's Messages API, through the
// real @ai-sdk/anthropic provider: what goes back to the model after each step.

type Block = Record<string, unknown>;
type MessagesRequest = {
  system?: { type: string; text: string }[];
  messages: { role: string; content: Block[] | string }[];
  tools?: { name: string }[];
};

let server: http.Server;
let baseURL: string;
let script: Block[][] = [];
let requests: MessagesRequest[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as MessagesRequest);
      const content = script.shift();
      if (req.url !== "/v1/messages" || !content) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: "invalid_request_error", message: "unscripted" },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `msg_${requests.length}`,
          type: "message",
          role: "assistant",
          model: "claude-test",
          content,
          stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = [];
  requests = [];
});

const model = () => createAnthropic({ baseURL, apiKey: "test" })("claude-test");
const use = (id: string, name: string, input: unknown): Block => ({
  type: "tool_use",
  id,
  name,
  input,
});
const text = (t: string): Block => ({ type: "text", text: t });

let ran: unknown[] = [];
const tools: Record<string, Tool> = {
  shout: tool({
    description: "Upper-cases a text.",
    inputSchema: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      ran.push(text);
      return { shouted: text.toUpperCase() };
    },
  }),
  broken: tool({
    description: "Always fails.",
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error("the disk is full");
    },
  }),
  publish: tool({
    description: "Publishes a text.",
    inputSchema: z.object({ text: z.string() }),
    needsApproval: true,
    execute: async ({ text }) => {
      ran.push(`published ${text}`);
      return "published";
    },
  }),
};

function agent(messages?: ModelMessage[]) {
  ran = [];
  const steps: AgentStep[] = [];
  const promise = runAgent({
    model: model(),
    system: "You are Loud.",
    prompt: "Shout hello.",
    messages,
    tools,
    maxSteps: 5,
    maxRetries: 0,
    signal: new AbortController().signal,
    onStep: async (s) => {
      steps.push(...s);
    },
  });
  return { promise, steps };
}

const lastUserBlocks = (r: MessagesRequest | undefined) => {
  const content = r?.messages.at(-1)?.content;
  return (Array.isArray(content) ? content : []) as Block[];
};

describe("the tool loop on Anthropic's Messages API", () => {
  it("sends the model's thinking back with its signature, then the tool's result", async () => {
    script = [
      [
        { type: "thinking", thinking: "I should shout.", signature: "sig-abc" },
        use("toolu_1", "shout", { text: "hello" }),
      ],
      [text("HELLO")],
    ];
    const { promise, steps } = agent();
    expect(await promise).toEqual({
      output: "HELLO",
      usage: { input_tokens: 20, output_tokens: 10 },
    });
    expect(ran).toEqual(["hello"]);
    expect(steps.map((s) => s.type)).toEqual(["thought", "tool_call", "tool_result", "answer"]);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.system?.[0]?.text).toBe("You are Loud.");
    expect(requests[0]?.tools?.map((t) => t.name)).toEqual(["shout", "broken", "publish"]);
    const assistant = requests[1]?.messages.at(-2);
    expect(assistant?.role).toBe("assistant");
    expect(assistant?.content).toEqual([
      { type: "thinking", thinking: "I should shout.", signature: "sig-abc" },
      { type: "tool_use", id: "toolu_1", name: "shout", input: { text: "hello" } },
    ]);
    const [result] = lastUserBlocks(requests[1]);
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(JSON.stringify(result)).toContain("HELLO");
  });

  it("a tool that throws: the model reads the error's message, the step is an error", async () => {
    script = [[use("toolu_b", "broken", {})], [text("Could not do it.")]];
    const { promise, steps } = agent();
    expect((await promise).output).toBe("Could not do it.");
    expect(steps.find((s) => s.type === "tool_result")).toMatchObject({
      call_id: "toolu_b",
      is_error: true,
      result: "Error: the disk is full",
    });
    const [result] = lastUserBlocks(requests[1]);
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_b", is_error: true });
    expect(JSON.stringify(result)).toContain("the disk is full");
  });

  it("an unknown tool or input that breaks its schema runs nothing and goes back as an error", async () => {
    script = [
      [
        use("toolu_x", "delete_everything", {}),
        use("toolu_y", "shout", { txt: 1 }),
        use("toolu_z", "constructor", {}),
      ],
      [text("Sorry.")],
    ];
    const { promise, steps } = agent();
    expect((await promise).output).toBe("Sorry.");
    expect(ran).toEqual([]);
    const errors = steps.filter((s) => s.type === "tool_result");
    expect(errors).toMatchObject([
      { call_id: "toolu_x", is_error: true },
      { call_id: "toolu_y", is_error: true },
      { call_id: "toolu_z", is_error: true },
    ]);
    // A name every object has is no tool of the agent's: refused as unknown, naming the real ones.
    expect(String((errors[2] as { result: unknown }).result)).toMatch(
      /unavailable tool .constructor.\. Available tools: shout, broken, publish/,
    );
    expect(String((errors[0] as { result: unknown }).result)).toMatch(/delete_everything/);
    const results = lastUserBlocks(requests[1]);
    expect(results.map((b) => [b.tool_use_id, b.is_error])).toEqual([
      ["toolu_x", true],
      ["toolu_y", true],
      ["toolu_z", true],
    ]);
  });

  it.each([
    ['{"text":"hi","__proto__":{"admin":true}}'],
    ['{"text":"hi","\\u005f_proto__":{"admin":true}}'],
    ['{"text":"hi","constructor":{"prototype":{"admin":true}}}'],
  ])("input carrying a prototype key is refused, not run: %s", async (input) => {
    ran = [];
    const out = await toolLoop({
      model: {
        ...model(),
        // The provider hands the loop the call's input as text, as the model wrote it.
        doGenerate: async () => ({
          content: [
            {
              type: "tool-call",
              toolCallId: "c1",
              toolName: "shout",
              input,
            },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_use" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
          warnings: [],
        }),
      },
      system: "s",
      messages: [{ role: "user", content: "go" }],
      tools,
      maxSteps: 1,
      maxRetries: 0,
      abortSignal: new AbortController().signal,
    });
    expect(ran).toEqual([]);
    expect(out.responseMessages.at(-1)).toMatchObject({
      role: "tool",
      content: [{ toolCallId: "c1", output: { type: "error-text" } }],
    });
  });

  it("stops at a call that needs approval, runs nothing, and keeps the conversation to go on", async () => {
    script = [[text("Publishing now."), use("toolu_p", "publish", { text: "hi" })]];
    const { promise, steps } = agent();
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolApprovalNeeded);
    const paused = err as ToolApprovalNeeded;
    expect(paused.calls).toMatchObject([
      { call_id: "toolu_p", tool: "publish", arguments: { text: "hi" } },
    ]);
    expect(paused.calls[0]?.input_schema).toMatchObject({ type: "object", required: ["text"] });
    expect(paused.stepsUsed).toBe(1);
    expect(ran).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(steps).toMatchObject([
      { type: "thought", text: "Publishing now." },
      { type: "tool_call", call_id: "toolu_p", needs_approval: true },
    ]);
    expect(paused.messages.map((m) => m.role)).toEqual(["user", "assistant"]);

    // Going on after the decision, from a conversation stored with the SDK's approval parts: they
    // are the engine's bookkeeping and never reach the model.
    const stored: ModelMessage[] = [
      ...paused.messages.slice(0, 1),
      {
        role: "assistant",
        content: [
          ...((paused.messages[1]?.content ?? []) as never[]),
          { type: "tool-approval-request", approvalId: "a1", toolCallId: "toolu_p" },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "toolu_p",
            toolName: "publish",
            output: { type: "text", value: "published" },
          },
        ],
      },
    ];
    script = [[text("Done.")]];
    const resumed = agent(stored);
    expect((await resumed.promise).output).toBe("Done.");
    const sent = JSON.stringify(requests[1]?.messages);
    expect(sent).not.toContain("approval");
    expect(requests[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
});
