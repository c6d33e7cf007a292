import { z } from "zod";
import { type LlmParams, parseModelRef } from "@/lib/llm/model-ref";
import { canonicalProvider, envName, knownProvider, type Vars } from "@/lib/llm/providers";

// An agent's `llm` as CrewAI takes it: a model name, or the settings of its LLM class.
const HttpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const LlmObjectSchema = z.looseObject({
  model: z
    .string({ error: "model must name the model, e.g. gpt-4o-mini or ollama/llama3.1" })
    .trim()
    .min(1, "model must not be empty"),
  provider: z.string().trim().min(1).optional(),
  base_url: HttpUrl.optional(),
  api_base: HttpUrl.optional(),
  api_version: z.string().trim().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  top_p: z.number().min(0).max(1).optional(),
  stop: z.union([z.string(), z.array(z.string())]).optional(),
  seed: z.number().int().optional(),
  // Read only to say it is ignored: keys belong in the environment, not in crew files.
  api_key: z.unknown().optional(),
});

export const LlmFieldSchema = z.union([z.string().trim().min(1), LlmObjectSchema], {
  error: "llm must be a model name (gpt-4o-mini, ollama/llama3.1) or {model: …, temperature: …}",
});

const KNOWN_KEYS = Object.keys(LlmObjectSchema.shape);

export type AgentLlm = {
  llm: string | undefined;
  llm_params?: LlmParams;
  /** Keys relative to the agent's `llm` ("" for the field itself). */
  warnings: { key: string; message: string }[];
  error?: string;
};

/** An agent's `llm` read into the one spelling the engine, pages and prices use. */
export function readAgentLlm(
  raw: z.infer<typeof LlmFieldSchema> | undefined,
  vars: Vars = process.env,
): AgentLlm {
  if (raw === undefined) return { llm: undefined, warnings: [] };
  if (typeof raw === "string") {
    const { value, error } = parseModelRef(raw, vars);
    return { llm: value?.id, warnings: [], error };
  }
  const warnings: AgentLlm["warnings"] = [];
  const provider = raw.provider?.toLowerCase();
  // CrewAI takes both `model: llama3.1, provider: ollama` and `model: ollama/llama3.1`.
  const named =
    provider && !hasPrefix(raw.model, provider) ? `${provider}/${raw.model}` : raw.model;
  const { value, error } = parseModelRef(named, vars);
  if (raw.api_key !== undefined) {
    const keyVar = value ? knownProvider(value.provider)?.keyVars[0] : undefined;
    warnings.push({
      key: "api_key",
      message: `an API key written in a crew file is ignored; remove it and set ${keyVar ?? `${envName(value?.provider ?? "provider")}_API_KEY`} in the environment`,
    });
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.includes(key)) warnings.push({ key, message: "unknown key ignored" });
  }
  if (raw.base_url && raw.api_base && raw.base_url !== raw.api_base)
    warnings.push({ key: "api_base", message: "ignored: base_url is given too" });
  const stop = typeof raw.stop === "string" ? [raw.stop] : raw.stop;
  const base_url = raw.base_url ?? raw.api_base;
  // Only the parameters written: an absent one is no key at all.
  const set: LlmParams = {
    ...(base_url !== undefined ? { base_url } : {}),
    ...(raw.api_version !== undefined ? { api_version: raw.api_version } : {}),
    ...(raw.temperature !== undefined ? { temperature: raw.temperature } : {}),
    ...(raw.max_tokens !== undefined ? { max_tokens: raw.max_tokens } : {}),
    ...(raw.top_p !== undefined ? { top_p: raw.top_p } : {}),
    ...(stop !== undefined ? { stop } : {}),
    ...(raw.seed !== undefined ? { seed: raw.seed } : {}),
  };
  return {
    llm: value?.id,
    ...(Object.keys(set).length ? { llm_params: set } : {}),
    warnings,
    error,
  };
}

function hasPrefix(model: string, provider: string) {
  const prefix = model.slice(0, model.indexOf("/") + 1).toLowerCase();
  if (!prefix) return false;
  return canonicalProvider(prefix.slice(0, -1)) === canonicalProvider(provider);
}
