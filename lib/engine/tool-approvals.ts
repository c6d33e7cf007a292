import type { ModelMessage, Tool, ToolResultPart } from "ai";
import { errorMessage } from "@/lib/errors";
import type { DecidedCall, PausedConversation } from "@/lib/run-model/review-types";
import type { AgentStep } from "./run-agent";

/**
 * Runs the approved calls (through the agent's wrapped tools, so time-outs and caps hold) and
 * answers refused ones with the reviewer's reason; returns the steps to record and the
 * conversation to continue, the model's calls rewritten with the arguments that really ran.
 */
export async function settleDecidedCalls(
  paused: PausedConversation,
  decided: DecidedCall[],
  tools: Record<string, Tool>,
  signal: AbortSignal,
): Promise<{ steps: AgentStep[]; messages: ModelMessage[] }> {
  const steps: AgentStep[] = [];
  const parts: ToolResultPart[] = [];
  for (const call of decided) {
    if (!call.approved) {
      const text = `Refused by the reviewer${call.reason.trim() ? `: ${call.reason.trim()}` : "."} The call did not run; go on without it.`;
      steps.push({
        type: "tool_result",
        tool: call.tool,
        call_id: call.call_id,
        result: { refused: true, reason: call.reason },
        is_error: true,
      });
      parts.push(toolResult(call, { type: "text", value: text }));
      continue;
    }
    const execute = tools[call.tool]?.execute;
    try {
      if (!execute) throw new Error(`Tool '${call.tool}' is no longer available to this agent.`);
      const args = call.edited ? call.arguments : modelsOwn(paused.messages, call);
      const result = await execute(args, {
        toolCallId: call.call_id,
        messages: paused.messages,
        abortSignal: signal,
      });
      steps.push({ type: "tool_result", tool: call.tool, call_id: call.call_id, result });
      parts.push(toolResult(call, { type: "json", value: asJson(result) }));
    } catch (err) {
      if (signal.aborted) throw err;
      const message = errorMessage(err);
      steps.push({
        type: "tool_result",
        tool: call.tool,
        call_id: call.call_id,
        result: message,
        is_error: true,
      });
      parts.push(toolResult(call, { type: "error-text", value: message }));
    }
  }
  return { steps, messages: continued(paused.messages, decided, parts) };
}

// The arguments the model wrote for a call (the review shows them with secrets redacted).
function modelsOwn(messages: ModelMessage[], call: DecidedCall): unknown {
  for (const m of messages) {
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const p of m.content)
      if (p.type === "tool-call" && p.toolCallId === call.call_id) return p.input;
  }
  return call.arguments;
}

// The saved turns without the approval requests (settled here, not by the SDK), the model's calls
// carrying the arguments that ran, and the decided calls' results after them.
function continued(
  messages: ModelMessage[],
  decided: DecidedCall[],
  parts: ToolResultPart[],
): ModelMessage[] {
  const byId = new Map(decided.map((d) => [d.call_id, d]));
  const out: ModelMessage[] = messages.map((m) => {
    if (m.role !== "assistant" || typeof m.content === "string") return m;
    return {
      ...m,
      content: m.content
        .filter((p) => p.type !== "tool-approval-request")
        .map((p) => {
          const d = p.type === "tool-call" ? byId.get(p.toolCallId) : undefined;
          return d?.edited && p.type === "tool-call" ? { ...p, input: d.arguments } : p;
        }),
    };
  });
  const last = out.at(-1);
  if (last?.role === "tool") {
    out[out.length - 1] = { ...last, content: [...last.content, ...parts] };
  } else {
    out.push({ role: "tool", content: parts });
  }
  return out;
}

const toolResult = (call: DecidedCall, output: ToolResultPart["output"]): ToolResultPart => ({
  type: "tool-result",
  toolCallId: call.call_id,
  toolName: call.tool,
  output,
});

function asJson(value: unknown) {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}
