import { z } from "zod";

// The model providers an agent's `llm` may name, with LiteLLM's prefixes and environment variable
// names (CrewAI hands model names to LiteLLM, so crews written for it name models this way).

type ProviderKind = "openai-compatible" | "anthropic" | "azure";

export type Provider = {
  name: string;
  kind: ProviderKind;
  /** Variables holding the key, first set wins. */
  keyVars: [string, ...string[]];
  /** Variables holding the base URL, first set wins. */
  baseVars: [string, ...string[]];
  /** Where requests go when no base URL is set; none means one must be set (Azure). */
  defaultBase?: string;
  /** Whether requests to the default base need a key (a local server does not). */
  needsKey: boolean;
};

const openaiCompatible = (
  name: string,
  defaultBase: string | undefined,
  needsKey = true,
  keyVars: Provider["keyVars"] = [`${envName(name)}_API_KEY`],
): Provider => ({
  name,
  kind: "openai-compatible",
  keyVars,
  baseVars: [`${envName(name)}_API_BASE`, `${envName(name)}_BASE_URL`],
  defaultBase,
  needsKey,
});

export const PROVIDERS: Record<string, Provider> = {
  openai: openaiCompatible("openai", "https://api.openai.com/v1"),
  anthropic: {
    name: "anthropic",
    kind: "anthropic",
    keyVars: ["ANTHROPIC_API_KEY"],
    baseVars: ["ANTHROPIC_BASE_URL", "ANTHROPIC_API_BASE"],
    defaultBase: "https://api.anthropic.com/v1",
    needsKey: true,
  },
  azure: {
    name: "azure",
    kind: "azure",
    keyVars: ["AZURE_API_KEY"],
    baseVars: ["AZURE_API_BASE"],
    needsKey: true,
  },
  // Ollama's OpenAI-compatible endpoint (/v1), not its native /api/chat.
  ollama: openaiCompatible("ollama", "http://localhost:11434/v1", false),
  groq: openaiCompatible("groq", "https://api.groq.com/openai/v1"),
  // Google's OpenAI-compatible endpoint for Gemini (AI Studio keys).
  gemini: openaiCompatible(
    "gemini",
    "https://generativelanguage.googleapis.com/v1beta/openai",
    true,
    ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  ),
  openrouter: openaiCompatible("openrouter", "https://openrouter.ai/api/v1"),
  deepseek: openaiCompatible("deepseek", "https://api.deepseek.com/v1"),
  mistral: openaiCompatible("mistral", "https://api.mistral.ai/v1"),
  xai: openaiCompatible("xai", "https://api.x.ai/v1"),
  lm_studio: openaiCompatible("lm_studio", "http://localhost:1234/v1", false),
};

// LiteLLM's other spellings of the same providers.
const PROVIDER_ALIASES: Record<string, string> = {
  ollama_chat: "ollama",
  google: "gemini",
};

/**
 * LiteLLM's one name for a provider prefix (aliases resolved). Own properties only: a prefix is
 * caller data, and `constructor` or `__proto__` must not find what every object inherits.
 */
export function canonicalProvider(prefix: string): string {
  return Object.hasOwn(PROVIDER_ALIASES, prefix) ? (PROVIDER_ALIASES[prefix] ?? prefix) : prefix;
}

/** A provider of the table by its canonical name, by own property only (see canonicalProvider). */
export function knownProvider(name: string): Provider | undefined {
  return Object.hasOwn(PROVIDERS, name) ? PROVIDERS[name] : undefined;
}

export const DEFAULT_AZURE_API_VERSION = "2024-10-21";

export type Vars = Record<string, string | undefined>;

/** `lm_studio` → `LM_STUDIO`: the prefix of a provider's variables. */
export function envName(provider: string) {
  return provider.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

const first = (vars: Vars, names: string[]) => {
  for (const name of names) {
    const value = vars[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
};

/**
 * The provider a prefix names: a known one, or any other whose `<PROVIDER>_API_BASE` (or
 * `_BASE_URL`) is set, taken as an OpenAI-compatible server (vLLM, LocalAI, a gateway…).
 */
export function findProvider(prefix: string, vars: Vars): Provider | undefined {
  const name = canonicalProvider(prefix);
  const known = knownProvider(name);
  if (known) return known;
  const custom = openaiCompatible(name, undefined, false);
  return first(vars, custom.baseVars) ? custom : undefined;
}

export const KNOWN_PROVIDERS = Object.keys(PROVIDERS);

const Url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

export type Endpoint = {
  provider: Provider;
  baseURL: string | undefined;
  /** Undefined when unset, or when it must not go to this base URL (see below). */
  apiKey: string | undefined;
  /** What is missing for a request to work (variables to set); empty when nothing is. */
  missing: string[];
  /** A base URL that is not a URL. */
  problem?: string;
};

/**
 * Where a provider's requests go and with what key. A base URL written in a crew file gets the
 * provider's key only when it is the provider's own address (default or from the environment):
 * a crew file must not be able to send the operator's key to a server of its choosing.
 */
export function endpointFor(provider: Provider, vars: Vars, crewBaseUrl?: string): Endpoint {
  const fromEnv = first(vars, provider.baseVars);
  const key = first(vars, provider.keyVars)?.value;
  let problem: string | undefined;
  if (fromEnv && !Url.safeParse(fromEnv.value).success)
    // Not echoed: a URL may carry credentials.
    problem = `${fromEnv.name} is not an http(s) URL`;
  const own = fromEnv?.value ?? provider.defaultBase;
  const base = crewBaseUrl ?? own;
  const sameOrigin = !crewBaseUrl || (own !== undefined && origin(crewBaseUrl) === origin(own));
  const apiKey = sameOrigin ? key : undefined;
  const missing: string[] = [];
  if (!base) missing.push(provider.baseVars[0]);
  // A base URL of the operator's or the crew's own choosing (a local server) may need no key.
  const keyNeeded = provider.kind === "azure" || (provider.needsKey && !fromEnv && !crewBaseUrl);
  if (keyNeeded && !apiKey)
    missing.push(
      key
        ? `${provider.keyVars[0]}, which is sent only to the provider's own address, not to a base_url from the crew file (set ${provider.baseVars[0]} instead)`
        : provider.keyVars[0],
    );
  return {
    provider,
    baseURL: base && provider.name === "ollama" ? withV1(base) : base,
    apiKey,
    missing,
    problem,
  };
}

const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

// LiteLLM's Ollama base is the server's root (http://localhost:11434); its OpenAI API is under /v1.
function withV1(base: string) {
  try {
    const url = new URL(base);
    if (url.pathname === "/" || url.pathname === "") return `${url.origin}/v1`;
  } catch {
    // reported as a problem elsewhere
  }
  return base;
}
