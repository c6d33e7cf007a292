import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type ModelChoice, ModelConfigError, missingSetup } from "./choose-model";
import { createOfflineModel } from "./offline-model";
import { DEFAULT_AZURE_API_VERSION, endpointFor, findProvider, type Vars } from "./providers";

// missingSetup has checked that a provider without a default base has one set.
function baseOf(model: string, baseURL: string | undefined): string {
  if (!baseURL) throw new ModelConfigError(`Model '${model}': no base URL is set.`);
  return baseURL;
}

/** The model of a choice (chooseModel), ready for the AI SDK; throws when a key or URL is missing. */
export function resolveModel(
  choice: ModelChoice,
  { offlineDelayMs, vars = process.env }: { offlineDelayMs: number; vars?: Vars },
): LanguageModelV3 {
  const { ref, params } = choice;
  if (ref.provider === "offline") return createOfflineModel({ delayMs: offlineDelayMs });
  const missing = missingSetup(choice, vars);
  if (missing) throw new ModelConfigError(`Model ${missing}.`);
  const provider = findProvider(ref.provider, vars);
  if (!provider) throw new ModelConfigError(`Model '${ref.id}': unknown provider.`);
  const { baseURL, apiKey } = endpointFor(provider, vars, params.base_url);
  switch (provider.kind) {
    case "anthropic":
      return createAnthropic({ apiKey, baseURL })(ref.model);
    case "azure": {
      // Azure routes by deployment in the path, takes the key as `api-key` and wants api-version.
      const root = baseOf(ref.id, baseURL)
        .replace(/\/+$/, "")
        .replace(/\/openai$/, "");
      return createOpenAICompatible({
        name: "azure",
        baseURL: `${root}/openai/deployments/${encodeURIComponent(ref.model)}`,
        headers: apiKey ? { "api-key": apiKey } : {},
        queryParams: {
          "api-version":
            params.api_version || vars.AZURE_API_VERSION?.trim() || DEFAULT_AZURE_API_VERSION,
        },
        includeUsage: true,
      }).chatModel(ref.model);
    }
    case "openai-compatible":
      return createOpenAICompatible({
        name: provider.name,
        baseURL: baseOf(ref.id, baseURL),
        apiKey,
        includeUsage: true,
      }).chatModel(ref.model);
  }
}
