import http from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, RetryError } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AgentDef } from "@/lib/crew/schema";
import { type AgentStep, runAgent } from "@/lib/engine/run-agent";
import { plainTools } from "@/lib/tools/builtin";

// A loopback server speaking the chat-completions wire format, answering from a script.
type Reply = { status: number; body: unknown; headers?: Record<string, string> };
type ChatMessage = {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
};
type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  tools?: { type: string; function: { name: string; parameters: unknown } }[];
};

let server: http.Server;
let baseURL: string;
let script: Reply[] = [];
let fallback: Reply;
let requests: { path: string; auth: string | undefined; body: ChatRequest }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({
        path: `${req.method} ${req.url}`,
        auth: req.headers.authorization,
        body: JSON.parse(text || "{}") as ChatRequest,
      });
      const reply =
        req.method === "POST" && req.url === "/v1/chat/completions"
          ? (script.shift() ?? fallback)
          : { status: 404, body: { error: { message: "not found" } } };
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body));
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
  fallback = { status: 500, body: { error: { message: "script exhausted" } } };
});

let nextId = 0;
function completion(
  message: { content: string | null; tool_calls?: unknown[] },
  finish_reason: string,
): Reply {
  nextId += 1;
  return {
    status: 200,
    body: {
      id: `chatcmpl-${nextId}`,
      object: "chat.completion",
      created: 1_700_000_000,
      model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason }],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
    },
  };
}
const toolCall = (id: string, args: unknown, content: string | null = null) =>
  completion(
    {
      content,
      tool_calls: [
        {
          id,
          type: "function",
          function: { name: "word_count", arguments: JSON.stringify(args) },
        },
      ],
    },
    "tool_calls",
  );
const answer = (text: string) => completion({ content: text }, "stop");
const failure = (status: number, headers?: Record<string, string>): Reply => ({
  status,
  headers,
  body: { error: { message: `upstream says ${status}`, type: "server_error" } },
});

const agent: AgentDef = {
  id: "writer",
  role: "Writer",
  goal: "Write",
  backstory: "Writes.",
  tools: ["word_count"],
  apps: [],
};

function model() {
  return createOpenAICompatible({ name: "openai", baseURL, apiKey: "test" }).chatModel(
    "test-model",
  );
}

function agentRun({
  maxRetries = 0,
  maxSteps = 5,
  signal = new AbortController().signal,
  onStep,
}: {
  maxRetries?: number;
  maxSteps?: number;
  signal?: AbortSignal;
  onStep?: (steps: AgentStep[]) => Promise<void>;
} = {}) {
  const steps: AgentStep[][] = [];
  const promise = runAgent({
    model: model(),
    system: "You are Writer.",
    prompt: "# Task\nCount the words.\n\n# Expected output\nA number.",
    tools: plainTools(agent.tools),
    maxSteps,
    maxRetries,
    signal,
    onStep:
      onStep ??
      (async (s) => {
        steps.push(s);
      }),
  });
  return { promise, steps };
}

const DRAFT = "One two three. Four five!";

describe("runAgent against an OpenAI-compatible server", () => {
  it("runs a tool call, reports every step in order, and returns the final answer", async () => {
    script = [
      toolCall("call_1", { text: DRAFT }, "I will count the words first."),
      answer("  The draft has 5 words.  "),
    ];
    const { promise, steps } = agentRun();
    const result = await promise;

    expect(result.output).toBe("The draft has 5 words.");
    expect(result.usage).toEqual({ input_tokens: 22, output_tokens: 14 });

    // one onStep call per model step, each with its steps in order
    expect(steps).toHaveLength(2);
    expect(steps.flat().map((s) => s.type)).toEqual([
      "thought",
      "tool_call",
      "tool_result",
      "answer",
    ]);
    expect(steps[0]).toEqual([
      { type: "thought", text: "I will count the words first." },
      {
        type: "tool_call",
        tool: "word_count",
        tool_input: { text: DRAFT },
        call_id: "call_1",
        // the step that ends a model call carries that call's tokens
        usage: { input_tokens: 11, output_tokens: 7 },
      },
      {
        type: "tool_result",
        tool: "word_count",
        result: { words: 5, sentences: 2, characters: DRAFT.length },
        call_id: "call_1",
      },
    ]);
    expect(steps[1]).toEqual([
      {
        type: "answer",
        text: "  The draft has 5 words.  ",
        usage: { input_tokens: 11, output_tokens: 7 },
      },
    ]);

    // the wire: two requests, the second carrying the assistant's call and the tool's result
    expect(requests).toHaveLength(2);
    expect(requests.every((r) => r.path === "POST /v1/chat/completions")).toBe(true);
    expect(requests[0]?.auth).toBe("Bearer test");
    const first = requests[0]?.body;
    expect(first?.model).toBe("test-model");
    expect(first?.messages[0]).toEqual({ role: "system", content: "You are Writer." });
    expect(first?.tools?.map((t) => t.function.name)).toEqual(["word_count"]);
    expect(first?.tools?.[0]?.function.parameters).toMatchObject({
      type: "object",
      required: ["text"],
    });
    const second = requests[1]?.body.messages ?? [];
    const assistant = second.find((m) => m.role === "assistant");
    expect(assistant?.tool_calls?.[0]).toMatchObject({
      id: "call_1",
      function: { name: "word_count" },
    });
    const toolMessage = second.find((m) => m.role === "tool");
    expect(toolMessage?.tool_call_id).toBe("call_1");
    expect(JSON.parse(String(toolMessage?.content))).toEqual({
      words: 5,
      sentences: 2,
      characters: DRAFT.length,
    });
  });

  it("without tool calls, the only step is the answer", async () => {
    script = [answer("Done.")];
    const { promise, steps } = agentRun();
    expect((await promise).output).toBe("Done.");
    expect(steps).toEqual([
      [{ type: "answer", text: "Done.", usage: { input_tokens: 11, output_tokens: 7 } }],
    ]);
    expect(requests).toHaveLength(1);
  });

  it("reports a tool call with invalid arguments as an error result, then goes on", async () => {
    script = [toolCall("call_bad", { words: 3 }), answer("Sorry, fixed.")];
    const { promise, steps } = agentRun();
    expect((await promise).output).toBe("Sorry, fixed.");
    const flat = steps.flat();
    const result = flat.find((s) => s.type === "tool_result");
    expect(result).toMatchObject({ tool: "word_count", call_id: "call_bad", is_error: true });
    expect(flat.at(-1)).toEqual({
      type: "answer",
      text: "Sorry, fixed.",
      usage: { input_tokens: 11, output_tokens: 7 },
    });
    expect(requests).toHaveLength(2);
  });

  it("retries server errors: 500 twice, then 200, succeeds with maxRetries 3", async () => {
    script = [failure(500), failure(500), answer("Third time lucky.")];
    const { promise } = agentRun({ maxRetries: 3 });
    expect((await promise).output).toBe("Third time lucky.");
    expect(requests).toHaveLength(3);
  });

  it("gives up on a steady 429 after maxRetries: 1 + 1 requests", async () => {
    fallback = failure(429, { "retry-after-ms": "20" });
    const { promise } = agentRun({ maxRetries: 1 });
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RetryError.isInstance(err)).toBe(true);
    const last = (err as RetryError).lastError;
    expect(APICallError.isInstance(last)).toBe(true);
    expect((last as APICallError).statusCode).toBe(429);
    expect((err as RetryError).errors).toHaveLength(2);
    expect(requests).toHaveLength(2);
  });

  it("does not retry with maxRetries 0", async () => {
    fallback = failure(503);
    const { promise } = agentRun({ maxRetries: 0 });
    await expect(promise).rejects.toSatisfy((e) => APICallError.isInstance(e));
    expect(requests).toHaveLength(1);
  });

  it("does not retry a 400", async () => {
    fallback = failure(400);
    const { promise } = agentRun({ maxRetries: 3 });
    await expect(promise).rejects.toThrow();
    expect(requests).toHaveLength(1);
  });

  it("rejects with onStep's own error and makes no further model call", async () => {
    script = [toolCall("call_1", { text: DRAFT }), answer("never reached")];
    fallback = answer("never reached either");
    const stop = new Error("stopped by the test");
    let calls = 0;
    const { promise } = agentRun({
      maxRetries: 3,
      onStep: async () => {
        calls += 1;
        throw stop;
      },
    });
    await expect(promise).rejects.toBe(stop);
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    expect(requests).toHaveLength(1);
  });

  it("out of steps, asks once more without tools; fails if there is still no answer", async () => {
    fallback = toolCall("call_x", { text: DRAFT });
    const { promise, steps } = agentRun({ maxSteps: 2 });
    await expect(promise).rejects.toThrow(/no final answer within 2 steps/);
    // Two steps with tools, then CrewAI's "final answer now" without them.
    expect(requests).toHaveLength(3);
    expect(requests[2]?.body.tools).toBeUndefined();
    expect(JSON.stringify(requests[2]?.body.messages)).toContain("Final answer now");
    // This server answers with a tool call even then: recorded as it came, and no output.
    expect(steps.flat().filter((s) => s.type === "tool_call")).toHaveLength(3);
  });

  it("out of steps, the answer to the last request is the output", async () => {
    script = [toolCall("call_1", { text: DRAFT }), answer("\nDone at last.  \n")];
    const { promise } = agentRun({ maxSteps: 1 });
    // Its tokens count with the steps' (each answer here used 11 in and 7 out).
    await expect(promise).resolves.toEqual({
      output: "Done at last.",
      usage: { input_tokens: 22, output_tokens: 14 },
    });
    expect(requests).toHaveLength(2);
    expect(requests[1]?.body.tools).toBeUndefined();
  });

  it("stops when the caller's signal aborts", async () => {
    script = [toolCall("call_1", { text: DRAFT })];
    fallback = answer("never reached");
    const controller = new AbortController();
    const reason = new Error("run cancelled");
    const { promise } = agentRun({
      signal: controller.signal,
      onStep: async () => controller.abort(reason),
    });
    await expect(promise).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toHaveLength(1);
  });
});
