import { type LlmParams, type ModelRef, parseModelRef } from "./model-ref";
import { endpointFor, findProvider, type Vars } from "./providers";

export type ModelChoice = {
  ref: ModelRef;
  params: LlmParams;
  /** Which setting picked it, for messages. */
  source: "LLM_OVERRIDE" | "agent" | "DEFAULT_LLM";
};

export type ModelSettings = { LLM_OVERRIDE?: string; DEFAULT_LLM: string };

/**
 * The model an agent runs on: LLM_OVERRIDE when set (every agent, whatever its crew file says,
 * with none of its crew-file settings), else the agent's `llm`, else DEFAULT_LLM.
 */
export function chooseModel(
  agent: { llm?: string; llm_params?: LlmParams },
  settings: ModelSettings,
  vars: Vars = process.env,
): ModelChoice {
  const [text, source, params] = settings.LLM_OVERRIDE
    ? [settings.LLM_OVERRIDE, "LLM_OVERRIDE" as const, {}]
    : agent.llm
      ? [agent.llm, "agent" as const, agent.llm_params ?? {}]
      : [settings.DEFAULT_LLM, "DEFAULT_LLM" as const, {}];
  const { value, error } = parseModelRef(text, vars);
  // The environment and crew files are checked when read; this is only reached if one changed.
  if (!value) throw new ModelConfigError(`${source}: ${error}`);
  return { ref: value, params, source };
}

export class ModelConfigError extends Error {}

/** What a run on this model would lack (a key, a base URL), in a sentence; undefined if nothing. */
export function missingSetup(choice: ModelChoice, vars: Vars = process.env): string | undefined {
  if (choice.ref.provider === "offline") return undefined;
  const provider = findProvider(choice.ref.provider, vars);
  if (!provider) return `unknown provider '${choice.ref.provider}'`;
  const endpoint = endpointFor(provider, vars, choice.params.base_url);
  if (endpoint.problem) return endpoint.problem;
  if (!endpoint.missing.length) return undefined;
  return `'${choice.ref.id}' needs ${endpoint.missing.join(" and ")}`;
}
