import type { LanguageModelV3Content } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { toPromptMessages, turnOf } from "@/lib/engine/loop-conversation";
import type { LoopStep } from "@/lib/engine/loop-step";

// The tool loop's conversation as stored and as sent back to the model: what a provider needs back
// (reasoning and its metadata, each call's input) goes back, and nothing the model must not see.

const signed = { anthropic: { signature: "sig-1" } };

function step(extra: Partial<LoopStep>): LoopStep {
  return {
    text: "",
    reasoningText: undefined,
    toolCalls: [],
    toolOutputs: [],
    approvalRequests: [],
    usage: { inputTokens: 1, outputTokens: 1 },
    ...extra,
  };
}

describe("a step's turn", () => {
  it("keeps the model's text, reasoning and own calls with their metadata, in order", () => {
    const content: LanguageModelV3Content[] = [
      { type: "text", text: "" },
      { type: "reasoning", text: "Look it up first.", providerMetadata: signed },
      { type: "text", text: "Searching." },
      { type: "tool-call", toolCallId: "c1", toolName: "search", input: '{"q":"tides"}' },
      { type: "tool-call", toolCallId: "c2", toolName: "search", input: "not json" },
      // Run by the provider itself (a hosted web search): its result came with the answer.
      {
        type: "tool-call",
        toolCallId: "p1",
        toolName: "web_search",
        input: "{}",
        providerExecuted: true,
      },
    ];
    const turn = turnOf(
      content,
      step({
        toolCalls: [
          { toolCallId: "c1", toolName: "search", input: { q: "tides" } },
          { toolCallId: "c2", toolName: "search", input: "not json" },
        ],
      }),
    );
    const parts = [
      { type: "reasoning", text: "Look it up first.", providerOptions: signed },
      { type: "text", text: "Searching.", providerOptions: undefined },
      {
        type: "tool-call",
        toolCallId: "c1",
        toolName: "search",
        input: { q: "tides" },
        providerOptions: undefined,
      },
      // An input that was not JSON goes back as an empty object.
      {
        type: "tool-call",
        toolCallId: "c2",
        toolName: "search",
        input: {},
        providerOptions: undefined,
      },
    ];
    expect(turn).toEqual([
      {
        message: { role: "assistant", content: parts },
        prompt: { role: "assistant", content: parts },
      },
    ]);
  });

  it("gives each tool's result or error in the form the model reads", () => {
    const turn = turnOf(
      [],
      step({
        toolOutputs: [
          { type: "tool-result", toolCallId: "a", toolName: "t", output: "plain text" },
          { type: "tool-result", toolCallId: "b", toolName: "t", output: { rows: 2 } },
          { type: "tool-result", toolCallId: "c", toolName: "t", output: undefined },
          { type: "tool-error", toolCallId: "d", toolName: "t", error: new Error("quota spent") },
        ],
      }),
    );
    // No text and no call: no empty assistant message before the results.
    expect(turn).toHaveLength(1);
    expect(turn[0]?.prompt).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "a",
          toolName: "t",
          output: { type: "text", value: "plain text" },
        },
        {
          type: "tool-result",
          toolCallId: "b",
          toolName: "t",
          output: { type: "json", value: { rows: 2 } },
        },
        {
          type: "tool-result",
          toolCallId: "c",
          toolName: "t",
          output: { type: "json", value: null },
        },
        {
          type: "tool-result",
          toolCallId: "d",
          toolName: "t",
          output: { type: "error-text", value: "quota spent" },
        },
      ],
    });
    expect(turn[0]?.message).toEqual(turn[0]?.prompt);
  });

  it("is nothing for a step with neither", () => {
    expect(turnOf([{ type: "text", text: "" }], step({}))).toEqual([]);
  });
});

describe("the prompt from a stored conversation", () => {
  const result = (id: string) => ({
    type: "tool-result" as const,
    toolCallId: id,
    toolName: "search",
    output: { type: "text" as const, value: `result ${id}` },
  });

  it("sends each role in the model's form and leaves out the engine's approval bookkeeping", () => {
    const messages: ModelMessage[] = [
      { role: "system", content: "You are Tidy." },
      { role: "user", content: "Find tides." },
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "Also waves." },
        ],
      },
      { role: "assistant", content: "On it." },
      {
        role: "assistant",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "", providerOptions: signed },
          { type: "tool-call", toolCallId: "a", toolName: "search", input: {} },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "a" },
        ],
      },
      {
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: "ap1", approved: true }],
      },
      { role: "tool", content: [result("a")] },
      { role: "tool", content: [result("b")] },
    ];
    expect(toPromptMessages(messages)).toEqual([
      { role: "system", content: "You are Tidy.", providerOptions: undefined },
      {
        role: "user",
        content: [{ type: "text", text: "Find tides." }],
        providerOptions: undefined,
      },
      {
        role: "user",
        content: [{ type: "text", text: "Also waves." }],
        providerOptions: undefined,
      },
      {
        role: "assistant",
        content: [{ type: "text", text: "On it." }],
        providerOptions: undefined,
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "", providerOptions: signed },
          { type: "tool-call", toolCallId: "a", toolName: "search", input: {} },
        ],
        providerOptions: undefined,
      },
      // The approval alone made no tool message; the two results go as one.
      { role: "tool", content: [result("a"), result("b")], providerOptions: undefined },
    ]);
  });

  it("keeps an approval the provider itself answered, and a conversation that opens with results", () => {
    const hosted = {
      type: "tool-approval-response" as const,
      approvalId: "ap2",
      approved: true,
      providerExecuted: true,
    };
    expect(toPromptMessages([{ role: "tool", content: [result("a"), hosted] }])).toEqual([
      { role: "tool", content: [result("a"), hosted], providerOptions: undefined },
    ]);
    // A pause's approval alone, then the person's message: no empty tool message between.
    const paused: ModelMessage[] = [
      { role: "assistant", content: "Asking first." },
      {
        role: "tool",
        content: [{ type: "tool-approval-response", approvalId: "ap1", approved: false }],
      },
      { role: "user", content: "Go on without it." },
    ];
    expect(toPromptMessages(paused).map((m) => m.role)).toEqual(["assistant", "user"]);
  });
});
