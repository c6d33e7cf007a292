import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, stepCountIs, type Tool } from "ai";
import type { LlmParams } from "@/lib/llm/model-ref";

export type AgentUsage = { input_tokens: number; output_tokens: number };

// The step that ends an LLM call (its answer, or its last tool call) carries that call's usage.
export type AgentStep =
  | { type: "thought"; text: string; usage?: AgentUsage }
  | { type: "tool_call"; tool: string; tool_input: unknown; call_id: string; usage?: AgentUsage }
  | { type: "tool_result"; tool: string; result: unknown; call_id: string; is_error?: boolean }
  | { type: "answer"; text: string; usage?: AgentUsage };

/**
 * One agent working one task: the AI SDK's tool loop, with every step reported through `onStep`
 * before the next one starts. If `onStep` fails (the run was stopped, the lease was lost), the
 * loop is aborted and that error is what this rejects with.
 */
export async function runAgent({
  model,
  system,
  prompt,
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
  tools: Record<string, Tool>;
  maxSteps: number;
  maxRetries: number;
  signal: AbortSignal;
  /** The steps of one LLM call, and the tokens that call used. */
  onStep: (steps: AgentStep[], usage: AgentUsage) => Promise<void>;
}): Promise<{ output: string; usage: AgentUsage }> {
  const local = new AbortController();
  let stepError: unknown;
  const abortSignal = AbortSignal.any([signal, local.signal]);
  try {
    const result = await generateText({
      model,
      system,
      prompt,
      tools,
      maxRetries,
      abortSignal,
      temperature: settings.temperature,
      maxOutputTokens: settings.max_tokens,
      topP: settings.top_p,
      stopSequences: settings.stop,
      seed: settings.seed,
      stopWhen: stepCountIs(maxSteps),
      onStepFinish: async (step) => {
        if (stepError) return;
        const steps: AgentStep[] = [];
        const thought = [step.reasoningText, step.toolCalls.length ? step.text : undefined]
          .filter(Boolean)
          .join("\n")
          .trim();
        if (thought) steps.push({ type: "thought", text: thought });
        for (const call of step.toolCalls) {
          steps.push({
            type: "tool_call",
            tool: call.toolName,
            tool_input: call.input,
            call_id: call.toolCallId,
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
        if (!step.toolCalls.length && step.text.trim())
          steps.push({ type: "answer", text: step.text });
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
      },
    });
    if (stepError) throw stepError;
    const output = result.text.trim();
    if (!output) {
      throw new Error(
        `The model gave no final answer within ${maxSteps} steps (it kept calling tools).`,
      );
    }
    return {
      output,
      usage: {
        input_tokens: result.totalUsage.inputTokens ?? 0,
        output_tokens: result.totalUsage.outputTokens ?? 0,
      },
    };
  } catch (err) {
    throw stepError ?? err;
  }
}
