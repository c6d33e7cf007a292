import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { TaskDef } from "@/lib/crew/schema";
import { guardrailPrompt, parseVerdict } from "./output-prompt";
import type { AgentUsage } from "./run-agent";
import { toolLoop } from "./tool-loop";

/** CrewAI's default for `guardrail_max_retries`. */
export const DEFAULT_GUARDRAIL_MAX_RETRIES = 3;

/** A task's guardrails in the order they are checked: `guardrail`, then `guardrails`. */
export function guardrailsOf(task: TaskDef): string[] {
  return [...(task.guardrail ? [task.guardrail] : []), ...(task.guardrails ?? [])];
}

/** One guardrail checked by the agent's own model, as CrewAI's LLMGuardrail does. */
export async function checkGuardrail({
  model,
  rule,
  output,
  maxRetries,
  signal,
}: {
  model: LanguageModelV3;
  rule: string;
  output: string;
  maxRetries: number;
  signal: AbortSignal;
}): Promise<{ pass: boolean; reason: string; usage: AgentUsage }> {
  const { system, prompt } = guardrailPrompt(rule, output);
  const res = await toolLoop({
    model,
    system,
    messages: [{ role: "user", content: prompt }],
    maxSteps: 1,
    maxRetries,
    abortSignal: signal,
  });
  return {
    ...parseVerdict(res.text),
    usage: { input_tokens: res.totalUsage.inputTokens, output_tokens: res.totalUsage.outputTokens },
  };
}
