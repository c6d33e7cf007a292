import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { env } from "@/lib/config/env";
import { parseModelRef } from "./model-ref";
import { createOfflineModel } from "./offline-model";

export class ModelConfigError extends Error {}

/** The model behind an agent's `llm` (or DEFAULT_LLM), ready for the AI SDK. */
export function resolveModel(ref: string | undefined): LanguageModelV3 {
  const e = env();
  const { value, error } = parseModelRef(ref ?? e.DEFAULT_LLM);
  if (!value) throw new ModelConfigError(error);
  switch (value.provider) {
    case "offline":
      return createOfflineModel({ delayMs: e.OFFLINE_MODEL_DELAY_MS });
    case "openai":
      // Chat completions: OpenAI itself or any compatible server (Ollama, vLLM) via OPENAI_BASE_URL.
      if (!e.OPENAI_API_KEY && !e.OPENAI_BASE_URL) {
        throw new ModelConfigError(
          `Model '${ref}' needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server).`,
        );
      }
      return createOpenAICompatible({
        name: "openai",
        baseURL: e.OPENAI_BASE_URL ?? "https://api.openai.com/v1",
        apiKey: e.OPENAI_API_KEY,
        includeUsage: true,
      }).chatModel(value.model);
    case "anthropic":
      if (!e.ANTHROPIC_API_KEY)
        throw new ModelConfigError(`Model '${ref}' needs ANTHROPIC_API_KEY.`);
      return createAnthropic({ apiKey: e.ANTHROPIC_API_KEY, baseURL: e.ANTHROPIC_BASE_URL })(
        value.model,
      );
  }
}
