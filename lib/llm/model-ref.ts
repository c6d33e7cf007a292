import { findProvider, KNOWN_PROVIDERS, type Vars } from "./providers";

// The model an agent names, as CrewAI (through LiteLLM) names it: `offline`, `<provider>/<model>`,
// or a bare model name, which means OpenAI's (`gpt-4o-mini` is `openai/gpt-4o-mini`).
export type ModelRef = {
  provider: string; // "offline", or a provider of providers.ts, aliases resolved
  model: string; // the provider's own name for it (for Azure: the deployment)
  id: string; // `provider/model`, or `offline`: the one spelling recorded, shown and priced
};

/** Settings CrewAI's LLM takes beside the model, as the crew file gives them. */
export type LlmParams = {
  base_url?: string;
  api_version?: string;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
};

const OFFLINE: ModelRef = { provider: "offline", model: "offline", id: "offline" };

const USAGE = `use 'offline', a bare OpenAI model name (gpt-4o-mini) or '<provider>/<model>' with a provider among ${KNOWN_PROVIDERS.join(", ")}`;

export function parseModelRef(
  ref: string,
  vars: Vars = process.env,
): { value?: ModelRef; error?: string } {
  const text = ref.trim();
  if (text === "offline") return { value: OFFLINE };
  if (!text || /\s/.test(text)) return { error: `model '${ref}' is not a model name: ${USAGE}` };
  const slash = text.indexOf("/");
  if (slash < 0) return { value: { provider: "openai", model: text, id: `openai/${text}` } };
  const prefix = text.slice(0, slash).toLowerCase();
  const model = text.slice(slash + 1);
  if (!model) return { error: `'${ref}' names no model: write '${prefix}/<model>'` };
  const provider = findProvider(prefix, vars);
  if (!provider) {
    const envPrefix = prefix.toUpperCase().replace(/[^A-Z0-9]/g, "_");
    return {
      error: `unknown provider '${prefix}' in '${ref}': ${USAGE}; for another OpenAI-compatible server set ${envPrefix}_API_BASE`,
    };
  }
  return { value: { provider: provider.name, model, id: `${provider.name}/${model}` } };
}
