import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  SharedV3Warning,
} from "@ai-sdk/provider";
import type { ModelMessage, Tool } from "ai";
import { toPromptMessages, turnOf } from "./loop-conversation";
import { type LoopStep, type LoopToolCall, type LoopToolOutput, messageOf } from "./loop-step";
import { withRetries } from "./model-retries";
import {
  approvalNeeded,
  describeTools,
  idOf,
  readToolCall,
  runTool,
  toolNamed,
} from "./tool-calls";

// The agent's tool loop on the model's own `doGenerate`: call the model, run the tool calls it
// asks for, give it their results, until it answers, stops on calls that wait for a person, or
// uses up its steps. The AI SDK's `generateText` does the same and more (streaming parts,
// telemetry attributes built on every step, a deep copy of the conversation per step, a zod check
// of every prompt), which cost a busy worker more CPU than the rest of a task. This keeps its
// behaviour where the engine relies on it: retries, tool input checks, approval requests, the
// conversation format (pauses are stored in it), provider metadata carried back to the model.

export type Sampling = Pick<
  LanguageModelV3CallOptions,
  "temperature" | "maxOutputTokens" | "topP" | "stopSequences" | "seed"
>;

export type LoopResult = {
  /** The last step's text. */
  text: string;
  steps: number;
  totalUsage: { inputTokens: number; outputTokens: number };
  /** The model's turns and the tools' results, to go on with after `messages`. */
  responseMessages: ModelMessage[];
  /** The last step's calls that wait for a person. */
  approvalRequests: LoopToolCall[];
};

/**
 * Runs the loop. `onStepFinish` runs after each step, before the next model call; an error it
 * throws ends the loop with that error. The caller's `abortSignal` is checked between steps and
 * passed to the model and the tools.
 */
export async function toolLoop({
  model,
  system,
  messages,
  tools,
  maxSteps,
  maxRetries,
  abortSignal,
  sampling = {},
  onStepFinish,
}: {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  tools?: Record<string, Tool>;
  maxSteps: number;
  maxRetries: number;
  abortSignal: AbortSignal;
  sampling?: Sampling;
  onStepFinish?: (step: LoopStep) => Promise<void> | void;
}): Promise<LoopResult> {
  const toolSet = tools && Object.keys(tools).length ? tools : undefined;
  const functionTools = toolSet ? await describeTools(toolSet) : undefined;
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: system },
    ...toPromptMessages(messages),
  ];
  const responseMessages: ModelMessage[] = [];
  const totalUsage = { inputTokens: 0, outputTokens: 0 };
  let steps = 0;
  for (;;) {
    if (steps > 0) abortSignal.throwIfAborted();
    const result = await withRetries(
      () =>
        model.doGenerate({
          ...sampling,
          prompt: [...prompt], // the loop goes on adding to its own
          tools: functionTools,
          toolChoice: functionTools ? { type: "auto" } : undefined,
          abortSignal,
        }),
      maxRetries,
      abortSignal,
    );
    steps++;
    warnOnce(model, result.warnings);
    const usage = {
      inputTokens: result.usage.inputTokens.total,
      outputTokens: result.usage.outputTokens.total,
    };
    const step = await settleStep(result.content, result.finishReason.unified, toolSet, usage, {
      abortSignal,
      messages,
      responseMessages,
    });
    totalUsage.inputTokens += step.usage.inputTokens ?? 0;
    totalUsage.outputTokens += step.usage.outputTokens ?? 0;
    const turn = turnOf(result.content, step);
    for (const m of turn) {
      responseMessages.push(m.message);
      prompt.push(m.prompt);
    }
    await onStepFinish?.(step);
    const calls = step.toolCalls.length;
    // Go on while every call the model made has its result (none waits for a person).
    if (calls === 0 || step.toolOutputs.length !== calls || steps >= maxSteps) {
      return {
        text: step.text,
        steps,
        totalUsage,
        responseMessages,
        approvalRequests: step.approvalRequests,
      };
    }
  }
}

/** The step's tool calls read against the tools, the approvals asked for, the others run. */
async function settleStep(
  content: LanguageModelV3Content[],
  finishReason: string,
  tools: Record<string, Tool> | undefined,
  usage: LoopStep["usage"],
  ctx: { abortSignal: AbortSignal; messages: ModelMessage[]; responseMessages: ModelMessage[] },
): Promise<LoopStep> {
  let text = "";
  let reasoning: string | undefined;
  const toolCalls: LoopToolCall[] = [];
  const toolOutputs: LoopToolOutput[] = [];
  const approvalRequests: LoopToolCall[] = [];
  const runnable: LoopToolCall[] = [];
  for (const part of content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "reasoning") reasoning = (reasoning ?? "") + part.text;
    else if (part.type === "tool-call" && !part.providerExecuted) {
      const read = await readToolCall(part, tools);
      toolCalls.push(read.call);
      if (read.error) {
        toolOutputs.push({ type: "tool-error", ...idOf(read.call), error: messageOf(read.error) });
      } else if (await approvalNeeded(toolNamed(tools, part.toolName), read.call, ctx)) {
        approvalRequests.push(read.call);
      } else {
        runnable.push(read.call);
      }
    }
  }
  // As the SDK: tools run only when the model finished to call them (not cut off by its length).
  if (tools && (finishReason === "stop" || finishReason === "tool-calls")) {
    const history = [...ctx.messages, ...ctx.responseMessages];
    toolOutputs.push(
      ...(await Promise.all(
        runnable.map((call) =>
          runTool(toolNamed(tools, call.toolName), call, history, ctx.abortSignal),
        ),
      )),
    );
  }
  return {
    text,
    reasoningText: reasoning,
    toolCalls,
    toolOutputs,
    approvalRequests,
    usage,
  };
}

// A provider's warning (a setting the model ignores, a compatibility mode) said once per process:
// the operator sees it in the log, as the SDK logs it, without one line per step.
const warned = new Set<string>();
function warnOnce(model: LanguageModelV3, warnings: SharedV3Warning[] | undefined) {
  for (const w of warnings ?? []) {
    const what =
      w.type === "other" ? w.message : `${w.type} ${w.feature}${w.details ? `: ${w.details}` : ""}`;
    const line = `Model ${model.provider}/${model.modelId}: ${what}`;
    if (warned.has(line)) continue;
    warned.add(line);
    console.warn(line);
  }
}
