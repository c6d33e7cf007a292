import type {
  LanguageModelV3Content,
  LanguageModelV3Message,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import { type LoopStep, type LoopToolOutput, messageOf } from "./loop-step";

// The conversation of the tool loop (./tool-loop.ts) in both its forms: the messages the engine
// stores (pauses are kept in them) and the prompt the model reads.

/**
 * The step as the conversation goes on: the model's turn (its text, reasoning and calls, with the
 * provider's metadata that some models need back), then the tools' results.
 */
export function turnOf(
  content: LanguageModelV3Content[],
  step: LoopStep,
): { message: ModelMessage; prompt: LanguageModelV3Message }[] {
  type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];
  const parts: AssistantPart[] = [];
  const inputs = new Map(step.toolCalls.map((c) => [c.toolCallId, c.input]));
  for (const part of content) {
    const providerOptions = "providerMetadata" in part ? part.providerMetadata : undefined;
    if (part.type === "text" && part.text.length > 0)
      parts.push({ type: "text", text: part.text, providerOptions });
    else if (part.type === "reasoning")
      parts.push({ type: "reasoning", text: part.text, providerOptions });
    else if (part.type === "tool-call" && !part.providerExecuted) {
      const input = inputs.get(part.toolCallId);
      parts.push({
        type: "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        // An input that was not JSON goes back as an empty object, as the SDK sends it.
        input: input !== null && typeof input === "object" ? input : {},
        providerOptions,
      });
    }
  }
  const out: { message: ModelMessage; prompt: LanguageModelV3Message }[] = [];
  if (parts.length) {
    out.push({
      message: { role: "assistant", content: parts },
      prompt: { role: "assistant", content: parts },
    });
  }
  if (step.toolOutputs.length) {
    const results = step.toolOutputs.map((o) => ({
      type: "tool-result" as const,
      toolCallId: o.toolCallId,
      toolName: o.toolName,
      output: modelOutput(o),
    }));
    out.push({
      message: { role: "tool", content: results },
      prompt: { role: "tool", content: results },
    });
  }
  return out;
}

function modelOutput(o: LoopToolOutput): LanguageModelV3ToolResultOutput {
  if (o.type === "tool-error") return { type: "error-text", value: messageOf(o.error) };
  if (typeof o.output === "string") return { type: "text", value: o.output };
  return { type: "json", value: (o.output === undefined ? null : o.output) as never };
}

/**
 * A stored or new conversation in the model's prompt format: approval requests and responses are
 * the engine's own bookkeeping (lib/engine/tool-approvals.ts) and never go to the model.
 */
export function toPromptMessages(messages: ModelMessage[]): LanguageModelV3Message[] {
  const out: LanguageModelV3Message[] = [];
  for (const m of messages) {
    if (m.role === "system") {
      out.push({ role: "system", content: m.content, providerOptions: m.providerOptions });
    } else if (m.role === "user") {
      out.push({
        role: "user",
        content:
          typeof m.content === "string"
            ? [{ type: "text", text: m.content }]
            : (m.content.filter((p) => p.type !== "text" || p.text !== "") as never),
        providerOptions: m.providerOptions,
      });
    } else if (m.role === "assistant") {
      out.push({
        role: "assistant",
        content:
          typeof m.content === "string"
            ? [{ type: "text", text: m.content }]
            : (m.content.filter(
                (p) =>
                  p.type !== "tool-approval-request" &&
                  (p.type !== "text" || p.text !== "" || p.providerOptions != null),
              ) as never),
        providerOptions: m.providerOptions,
      });
    } else {
      const content = m.content.filter(
        (p) => p.type !== "tool-approval-response" || p.providerExecuted,
      ) as Extract<LanguageModelV3Message, { role: "tool" }>["content"];
      const last = out.at(-1);
      // Consecutive tool messages go to the model as one.
      if (last?.role === "tool") last.content = [...last.content, ...content];
      else if (content.length)
        out.push({ role: "tool", content, providerOptions: m.providerOptions });
    }
  }
  return out;
}
