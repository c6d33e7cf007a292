import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  asSchema,
  generateText,
  type ModelMessage,
  modelMessageSchema,
  type StepResult,
  stepCountIs,
  type Tool,
  type ToolSet,
} from "ai";
import { z } from "zod";
import type { LlmParams } from "@/lib/llm/model-ref";
import { linkedSignal } from "@/lib/util/linked-signal";

// The AI SDK checks every call's messages against its ModelMessage schema, which holds a lazy
// JSON-value schema. zod caches whether a schema is recursive only once its lazy parts are
// resolved, and a prompt without JSON values never resolves them, so it walked the whole message
// schema again on every call (a tenth of a millisecond each). Resolving it once here lets zod
// cache the answer: the same check, a fifth of the cost.
z.core.isRecursiveSchema(modelMessageSchema);

// The offline model recognises this heading (lib/llm/offline-model.ts).
export const FINAL_ANSWER_NOW =
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

/** A tool call the model asked for that waits for a person (the tool's `needsApproval`). */
export type GatedCall = {
  call_id: string;
  tool: string;
  arguments: unknown;
  /** The tool's parameters as JSON Schema: edited arguments are checked against it. */
  input_schema: Record<string, unknown>;
  source?: "builtin" | "tracker" | "mcp";
  server?: string;
  writes?: boolean;
};

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
 * One agent working one task: the AI SDK's tool loop, with every step reported through `onStep`
 * before the next one starts. If `onStep` fails (the run was stopped, the lease was lost), the
 * loop is aborted and that error is what this rejects with.
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
  const local = new AbortController();
  let stepError: unknown;
  const { signal: abortSignal, unlink } = linkedSignal(signal, local.signal);
  const sampling = {
    temperature: settings.temperature,
    maxOutputTokens: settings.max_tokens,
    topP: settings.top_p,
    stopSequences: settings.stop,
    seed: settings.seed,
  };
  const onStepFinish = async (step: StepResult<ToolSet>) => {
    if (stepError) return;
    const steps: AgentStep[] = [];
    const thought = [step.reasoningText, step.toolCalls.length ? step.text : undefined]
      .filter(Boolean)
      .join("\n")
      .trim();
    if (thought) steps.push({ type: "thought", text: thought });
    const gated = new Set(
      step.content.flatMap((p) =>
        p.type === "tool-approval-request" ? [p.toolCall.toolCallId] : [],
      ),
    );
    for (const call of step.toolCalls) {
      steps.push({
        type: "tool_call",
        tool: call.toolName,
        tool_input: call.input,
        call_id: call.toolCallId,
        ...(gated.has(call.toolCallId) ? { needs_approval: true as const } : {}),
      });
    }
    for (const part of step.content) {
      if (part.type === "tool-result") {
        steps.push({
          type: "tool_result",
          tool: part.toolName,
          result: part.output,
          call_id: part.toolCallId,
        });
      } else if (part.type === "tool-error") {
        steps.push({
          type: "tool_result",
          tool: part.toolName,
          result: String(part.error),
          call_id: part.toolCallId,
          is_error: true,
        });
      }
    }
    if (!step.toolCalls.length && step.text.trim()) steps.push({ type: "answer", text: step.text });
    const usage: AgentUsage = {
      input_tokens: step.usage.inputTokens ?? 0,
      output_tokens: step.usage.outputTokens ?? 0,
    };
    // The call's usage goes on its answer, else its last tool call, else its last step.
    const ender =
      steps.findLast((s) => s.type === "answer") ??
      steps.findLast((s) => s.type === "tool_call") ??
      steps.findLast((s) => s.type === "thought");
    if (ender) ender.usage = usage;
    try {
      await onStep(steps, usage);
    } catch (err) {
      // The SDK swallows callback errors; remember ours and stop the loop ourselves.
      stepError = err;
      local.abort(err);
    }
  };
  const start: ModelMessage[] = messages ?? [{ role: "user", content: prompt }];
  try {
    const result = await generateText({
      model,
      system,
      messages: start,
      tools,
      maxRetries,
      abortSignal,
      ...sampling,
      stopWhen: stepCountIs(maxSteps),
      onStepFinish,
    });
    if (stepError) throw stepError;
    const requests = result.content.flatMap((p) =>
      p.type === "tool-approval-request" ? [p.toolCall] : [],
    );
    if (requests.length) {
      throw new ToolApprovalNeeded(
        requests.map((call) => ({
          call_id: call.toolCallId,
          tool: call.toolName,
          arguments: call.input,
          input_schema: inputSchemaOf(tools[call.toolName]),
        })),
        [...start, ...result.response.messages],
        result.steps.length,
      );
    }
    let output = result.text.trim();
    const usage = {
      input_tokens: result.totalUsage.inputTokens ?? 0,
      output_tokens: result.totalUsage.outputTokens ?? 0,
    };
    if (!output) {
      // Out of steps (CrewAI's max_iter) while still calling tools: as CrewAI does, ask once
      // more, with no tools, for the best final answer from what it has.
      const last = await generateText({
        model,
        system,
        messages: [
          ...start,
          ...result.response.messages,
          { role: "user", content: FINAL_ANSWER_NOW },
        ],
        maxRetries,
        abortSignal,
        ...sampling,
        onStepFinish,
      });
      if (stepError) throw stepError;
      output = last.text.trim();
      usage.input_tokens += last.totalUsage.inputTokens ?? 0;
      usage.output_tokens += last.totalUsage.outputTokens ?? 0;
      if (!output) throw new Error(`The model gave no final answer within ${maxSteps} steps.`);
    }
    return { output, usage };
  } catch (err) {
    throw stepError ?? err;
  } finally {
    unlink();
  }
}

function inputSchemaOf(t: Tool | undefined): Record<string, unknown> {
  if (!t?.inputSchema) return { type: "object" };
  const schema = asSchema(t.inputSchema).jsonSchema;
  return (schema && typeof schema === "object" ? schema : { type: "object" }) as Record<
    string,
    unknown
  >;
}
