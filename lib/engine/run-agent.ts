import type { LanguageModelV3 } from "@ai-sdk/provider";
import { asSchema, type ModelMessage, type Tool } from "ai";
import type { LlmParams } from "@/lib/llm/model-ref";
import type { GatedCall } from "@/lib/run-model/review-types";
import type { LoopStep } from "./loop-step";
import { toolLoop } from "./tool-loop";

// The offline model recognises this heading (lib/llm/offline-model.ts).
const FINAL_ANSWER_NOW =
  "# Final answer now\nYou have used all the steps you may take on this task. Do not call any more tools: give your best complete final answer now, from what you have.";

export type AgentUsage = { input_tokens: number; output_tokens: number };

// The step that ends an LLM call (its answer, or its last tool call) carries that call's usage.
export type AgentStep =
  | { type: "thought"; text: string; usage?: AgentUsage }
  | {
      type: "tool_call";
      tool: string;
      tool_input: unknown;
      call_id: string;
      usage?: AgentUsage;
      /** The call waits for a person's approval before it runs (requires_approval). */
      needs_approval?: true;
    }
  | { type: "tool_result"; tool: string; result: unknown; call_id: string; is_error?: boolean }
  | { type: "answer"; text: string; usage?: AgentUsage };

/**
 * The agent's loop stopped at tool calls that need approval. `messages` is the conversation so
 * far (the task's prompt, then the model's turns), to continue from once they are decided.
 */
export class ToolApprovalNeeded extends Error {
  constructor(
    readonly calls: GatedCall[],
    readonly messages: ModelMessage[],
    readonly stepsUsed: number,
  ) {
    super(`Waiting for approval of ${calls.map((c) => c.tool).join(", ")}.`);
  }
}

/**
 * One agent working one task: the tool loop (./tool-loop.ts), with every step reported through
 * `onStep` before the next one starts. If `onStep` fails (the run was stopped, the lease was
 * lost), no further model call is made and that error is what this rejects with.
 */
export async function runAgent({
  model,
  system,
  prompt,
  messages,
  tools,
  maxSteps,
  maxRetries,
  signal,
  onStep,
  settings = {},
}: {
  model: LanguageModelV3;
  /** Sampling settings from the crew file (CrewAI's LLM arguments). */
  settings?: LlmParams;
  system: string;
  prompt: string;
  /** A conversation to go on with instead of starting from `prompt` (after a tool approval). */
  messages?: ModelMessage[];
  tools: Record<string, Tool>;
  maxSteps: number;
  maxRetries: number;
  signal: AbortSignal;
  /** The steps of one LLM call, and the tokens that call used. */
  onStep: (steps: AgentStep[], usage: AgentUsage) => Promise<void>;
}): Promise<{ output: string; usage: AgentUsage }> {
  const sampling = {
    temperature: settings.temperature,
    maxOutputTokens: settings.max_tokens,
    topP: settings.top_p,
    stopSequences: settings.stop,
    seed: settings.seed,
  };
  // An error from onStep (the run was stopped, the lease was lost) ends the loop with that error.
  const onStepFinish = (step: LoopStep) => {
    const usage: AgentUsage = {
      input_tokens: step.usage.inputTokens ?? 0,
      output_tokens: step.usage.outputTokens ?? 0,
    };
    return onStep(stepsOf(step, usage), usage);
  };
  const start: ModelMessage[] = messages ?? [{ role: "user", content: prompt }];
  const common = { model, system, maxRetries, abortSignal: signal, sampling, onStepFinish };
  const result = await toolLoop({ ...common, messages: start, tools, maxSteps });
  if (result.approvalRequests.length) {
    throw new ToolApprovalNeeded(
      result.approvalRequests.map((call) => ({
        call_id: call.toolCallId,
        tool: call.toolName,
        arguments: call.input,
        input_schema: inputSchemaOf(tools[call.toolName]),
      })),
      [...start, ...result.responseMessages],
      result.steps,
    );
  }
  let output = result.text.trim();
  const usage = {
    input_tokens: result.totalUsage.inputTokens,
    output_tokens: result.totalUsage.outputTokens,
  };
  if (!output) {
    // Out of steps (CrewAI's max_iter) while still calling tools: as CrewAI does, ask once
    // more, with no tools, for the best final answer from what it has.
    signal.throwIfAborted();
    const last = await toolLoop({
      ...common,
      messages: [...start, ...result.responseMessages, { role: "user", content: FINAL_ANSWER_NOW }],
      maxSteps: 1,
    });
    output = last.text.trim();
    usage.input_tokens += last.totalUsage.inputTokens;
    usage.output_tokens += last.totalUsage.outputTokens;
    if (!output) throw new Error(`The model gave no final answer within ${maxSteps} steps.`);
  }
  return { output, usage };
}

/** One model call as the run records it; the call's usage goes on the step that ends it. */
function stepsOf(step: LoopStep, usage: AgentUsage): AgentStep[] {
  const steps: AgentStep[] = [];
  const thought = [step.reasoningText, step.toolCalls.length ? step.text : undefined]
    .filter(Boolean)
    .join("\n")
    .trim();
  if (thought) steps.push({ type: "thought", text: thought });
  const gated = new Set(step.approvalRequests.map((c) => c.toolCallId));
  for (const call of step.toolCalls) {
    steps.push({
      type: "tool_call",
      tool: call.toolName,
      tool_input: call.input,
      call_id: call.toolCallId,
      ...(gated.has(call.toolCallId) ? { needs_approval: true as const } : {}),
    });
  }
  for (const out of step.toolOutputs) {
    steps.push(
      out.type === "tool-result"
        ? { type: "tool_result", tool: out.toolName, result: out.output, call_id: out.toolCallId }
        : {
            type: "tool_result",
            tool: out.toolName,
            result: String(out.error),
            call_id: out.toolCallId,
            is_error: true,
          },
    );
  }
  if (!step.toolCalls.length && step.text.trim()) steps.push({ type: "answer", text: step.text });
  // The call's usage goes on its answer, else its last tool call, else its last step.
  const ender =
    steps.findLast((s) => s.type === "answer") ??
    steps.findLast((s) => s.type === "tool_call") ??
    steps.findLast((s) => s.type === "thought");
  if (ender) ender.usage = usage;
  return steps;
}

function inputSchemaOf(t: Tool | undefined): Record<string, unknown> {
  if (!t?.inputSchema) return { type: "object" };
  const schema = asSchema(t.inputSchema).jsonSchema;
  return isObject(schema) ? schema : { type: "object" };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object";
