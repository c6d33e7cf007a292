import type { LanguageModelV3Content } from "@ai-sdk/provider";
import { type ModelMessage, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { LoopStep } from "@/lib/engine/loop-step";
import { runAgent } from "@/lib/engine/run-agent";
import { toolLoop } from "@/lib/engine/tool-loop";

// One step of the tool loop against a scripted model: which calls run, what the tools are given,
// and when the loop stops. (tests/unit/tool-loop.test.ts runs it against a real provider.)

type Reply = { content: LanguageModelV3Content[]; finish?: "stop" | "tool-calls" | "length" };

function scripted(replies: Reply[]) {
  const calls: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const reply = replies[calls.length - 1] ?? { content: [{ type: "text", text: "Done." }] };
      const finish = reply.finish ?? "stop";
      return {
        content: reply.content,
        finishReason: { unified: finish, raw: finish },
        usage: {
          inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 2, text: 2, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, calls };
}

const searchCall = (id: string): LanguageModelV3Content => ({
  type: "tool-call",
  toolCallId: id,
  toolName: "search",
  input: '{"q":"tides"}',
});

function searchTool() {
  const seen: { input: unknown; messages: ModelMessage[] }[] = [];
  const search = tool({
    inputSchema: z.object({ q: z.string() }),
    execute: async (input, { messages }) => {
      seen.push({ input, messages });
      return "high at noon";
    },
  });
  return { search, seen };
}

function loop(model: MockLanguageModelV3, extra: Partial<Parameters<typeof toolLoop>[0]> = {}) {
  const steps: LoopStep[] = [];
  const result = toolLoop({
    model,
    system: "You are Tidy.",
    messages: [{ role: "user", content: "When is high tide?" }],
    maxSteps: 5,
    maxRetries: 0,
    abortSignal: new AbortController().signal,
    onStepFinish: (s) => {
      steps.push(s);
    },
    ...extra,
  });
  return { result, steps };
}

describe("a step of the tool loop", () => {
  it("runs the calls, gives the tools the conversation so far, and goes on to the answer", async () => {
    const { model, calls } = scripted([{ content: [searchCall("c1")], finish: "tool-calls" }]);
    const { search, seen } = searchTool();
    const { result, steps } = loop(model, { tools: { search } });
    await expect(result).resolves.toMatchObject({
      text: "Done.",
      steps: 2,
      totalUsage: { inputTokens: 6, outputTokens: 4 },
    });
    expect(calls).toHaveLength(2);
    expect(seen).toEqual([
      { input: { q: "tides" }, messages: [{ role: "user", content: "When is high tide?" }] },
    ]);
    expect(steps[0]?.toolOutputs).toEqual([
      { type: "tool-result", toolCallId: "c1", toolName: "search", output: "high at noon" },
    ]);
  });

  it("runs nothing the model was cut off while asking for", async () => {
    const { model, calls } = scripted([{ content: [searchCall("c1")], finish: "length" }]);
    const { search, seen } = searchTool();
    const { result, steps } = loop(model, { tools: { search } });
    await expect(result).resolves.toMatchObject({ steps: 1 });
    expect(seen).toEqual([]);
    expect(steps[0]?.toolCalls).toHaveLength(1);
    expect(steps[0]?.toolOutputs).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("leaves a call the provider ran itself to the provider", async () => {
    const hosted: LanguageModelV3Content = {
      type: "tool-call",
      toolCallId: "p1",
      toolName: "search",
      input: '{"q":"tides"}',
      providerExecuted: true,
    };
    const { model } = scripted([{ content: [hosted, { type: "text", text: "Noon." }] }]);
    const { search, seen } = searchTool();
    const { result, steps } = loop(model, { tools: { search } });
    await expect(result).resolves.toMatchObject({ text: "Noon.", steps: 1 });
    expect(seen).toEqual([]);
    expect(steps[0]?.toolCalls).toEqual([]);
  });

  it("keeps every piece of the model's reasoning, in order", async () => {
    const { model } = scripted([
      {
        content: [
          { type: "reasoning", text: "Tides follow the moon. " },
          { type: "reasoning", text: "Check the table." },
          { type: "text", text: "Noon." },
        ],
      },
    ]);
    const { result, steps } = loop(model);
    await result;
    expect(steps[0]?.reasoningText).toBe("Tides follow the moon. Check the table.");
  });

  it("calls the model no more once the caller stops it between steps", async () => {
    const { model, calls } = scripted([
      { content: [searchCall("c1")], finish: "tool-calls" },
      { content: [searchCall("c2")], finish: "tool-calls" },
    ]);
    const { search } = searchTool();
    const controller = new AbortController();
    const { result } = loop(model, {
      tools: { search },
      abortSignal: controller.signal,
      onStepFinish: () => controller.abort(new Error("run stopped")),
    });
    await expect(result).rejects.toThrow("run stopped");
    // The scripted model ignores the signal, as a provider may: the loop itself must stop.
    expect(calls).toHaveLength(1);
  });

  it("offers the model no tools when the agent has none", async () => {
    const { model, calls } = scripted([]);
    await loop(model, { tools: {} }).result;
    expect(calls[0]).toMatchObject({ tools: undefined, toolChoice: undefined });
  });
});

describe("an agent's model settings", () => {
  it("reach every model call: the crew file's temperature, max_tokens, top_p, stop and seed", async () => {
    const { model, calls } = scripted([{ content: [searchCall("c1")], finish: "tool-calls" }]);
    const { search } = searchTool();
    await runAgent({
      model,
      system: "You are Tidy.",
      prompt: "When is high tide?",
      tools: { search },
      maxSteps: 3,
      maxRetries: 0,
      signal: new AbortController().signal,
      onStep: async () => {},
      settings: { temperature: 0.2, max_tokens: 300, top_p: 0.9, stop: ["END"], seed: 7 },
    });
    expect(calls).toHaveLength(2);
    for (const call of calls)
      expect(call).toMatchObject({
        temperature: 0.2,
        maxOutputTokens: 300,
        topP: 0.9,
        stopSequences: ["END"],
        seed: 7,
      });
  });
});
