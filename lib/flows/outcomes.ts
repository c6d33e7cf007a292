import { generateText } from "ai";
import { env } from "@/lib/config/env";
import { errorMessage } from "@/lib/errors";
import { chooseModel, missingSetup } from "@/lib/llm/choose-model";
import { resolveModel } from "@/lib/llm/resolve-model";
import type { TokenUsage } from "@/lib/run-model/types";

// Which outcome a router's answer or a reviewer's feedback names (crewai/flow/runtime
// _collapse_to_outcome): the outcome it is, ignoring case; else the longest outcome it contains.

export function matchOutcome(text: string, outcomes: readonly string[]): string | undefined {
  const said = text.trim().toLowerCase();
  const exact = outcomes.find((o) => o.toLowerCase() === said);
  if (exact) return exact;
  let best: string | undefined;
  for (const o of outcomes)
    if (said.includes(o.toLowerCase()) && o.length > (best?.length ?? -1)) best = o;
  return best;
}

/** The outcome, how it was chosen, and what a model spent reading the feedback (if one did). */
export type FeedbackOutcome = { outcome: string; how: string; usage?: TokenUsage };

/**
 * The outcome a reviewer's feedback routes to, as CrewAI decides it: the outcome chosen (a button,
 * `outcome` on /resume); with no feedback, the default outcome (else the first); feedback that is
 * an outcome; else the method's model reads the feedback into one; the default when all fail.
 */
export async function feedbackOutcome({
  feedback,
  chosen,
  emit,
  defaultOutcome,
  llm,
}: {
  feedback: string;
  chosen: string | undefined;
  emit: readonly string[];
  defaultOutcome: string | null;
  llm: string | null;
}): Promise<FeedbackOutcome> {
  const fallback = defaultOutcome ?? emit[0] ?? "";
  if (chosen !== undefined) return { outcome: chosen, how: "chosen by the reviewer" };
  if (!feedback.trim()) return { outcome: fallback, how: "no feedback: the default outcome" };
  const exact = emit.find((o) => o.toLowerCase() === feedback.trim().toLowerCase());
  if (exact) return { outcome: exact, how: "the feedback names it" };
  const e = env();
  const choice = chooseModel({ llm: llm ?? undefined }, e);
  const missing = missingSetup(choice);
  if (choice.ref.provider === "offline" || missing) {
    const found = matchOutcome(feedback, emit);
    return found
      ? { outcome: found, how: "the feedback mentions it" }
      : {
          outcome: fallback,
          how: `no model to read the feedback${missing ? ` (${missing})` : ""}: the default outcome`,
        };
  }
  try {
    const { text, usage: used } = await generateText({
      model: resolveModel(choice, { offlineDelayMs: e.OFFLINE_MODEL_DELAY_MS }),
      prompt: `Based on the following human feedback, determine which outcome best matches their intent.\n\nFeedback: ${feedback}\n\nPossible outcomes: ${emit.join(", ")}\n\nRespond with ONLY one of the exact outcome values listed above, nothing else.`,
      maxRetries: 2,
    });
    const found = matchOutcome(text, emit);
    // Counted as the engine counts a task's calls: what went in and what came out.
    const input = used.inputTokens ?? 0;
    const output = used.outputTokens ?? 0;
    const usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
    if (found) return { outcome: found, how: `read from the feedback by ${choice.ref.id}`, usage };
    return {
      outcome: fallback,
      how: `${choice.ref.id} named no outcome: the default outcome`,
      usage,
    };
  } catch (err) {
    return {
      outcome: fallback,
      how: `${choice.ref.id} failed (${errorMessage(err)}): the default outcome`,
    };
  }
}
