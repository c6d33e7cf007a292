import { z } from "zod";
import { readSetting } from "@/lib/db/settings";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { canonicalProvider } from "@/lib/llm/providers";
import type { TaskState } from "./types";

// What a model costs, in US dollars per million input and output tokens: an estimate from list
// prices, overridable per deployment. Later sources win: the defaults below, then the dashboard
// setting (`model_prices`), then the MODEL_PRICES environment variable (the operator's word).

const ModelPriceSchema = z.object({
  input: z.number().min(0, "input must be a price ≥ 0 (USD per 1M tokens)"),
  output: z.number().min(0, "output must be a price ≥ 0 (USD per 1M tokens)"),
});
const ModelPricesSchema = z
  .record(z.string().min(1).max(200), ModelPriceSchema)
  .meta({ id: "ModelPrices" });
// PUT /api/settings/model-prices, and what it and GET answer: each layer and the table in force.
export const ModelPricesUpdateSchema = z
  .object({
    prices: ModelPricesSchema.refine((p) => Object.keys(p).length <= 200, {
      error: "at most 200 models",
    }),
  })
  .meta({ id: "ModelPricesUpdate" });
export const ModelPricesViewSchema = z
  .object({
    prices: ModelPricesSchema.describe("The table in force"),
    saved: ModelPricesSchema,
    environment: ModelPricesSchema.describe("From MODEL_PRICES (wins over the others)"),
    defaults: ModelPricesSchema,
    precedence: z.string(),
  })
  .meta({ id: "ModelPricesView" });
export type ModelPrice = z.infer<typeof ModelPriceSchema>;
export type ModelPrices = z.infer<typeof ModelPricesSchema>;

export const MODEL_PRICES_SETTING = "model_prices";

/**
 * List prices (USD per 1M tokens) of common models; keys without the provider prefix match the
 * model at any provider, `<provider>/*` every model of one provider.
 */
export const DEFAULT_MODEL_PRICES: ModelPrices = {
  offline: { input: 0, output: 0 },
  // Models served on the operator's own machine: no per-token bill.
  "ollama/*": { input: 0, output: 0 },
  "lm_studio/*": { input: 0, output: 0 },
  "gpt-4o": { input: 2.5, output: 10 },
  "gpt-4o-mini": { input: 0.15, output: 0.6 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "gpt-5": { input: 1.25, output: 10 },
  "gpt-5-mini": { input: 0.25, output: 2 },
  "gpt-5-nano": { input: 0.05, output: 0.4 },
  o1: { input: 15, output: 60 },
  o3: { input: 2, output: 8 },
  "o3-mini": { input: 1.1, output: 4.4 },
  "o4-mini": { input: 1.1, output: 4.4 },
  "claude-opus-4": { input: 15, output: 75 },
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4-5": { input: 5, output: 25 },
  "claude-sonnet-4": { input: 3, output: 15 },
  "claude-sonnet-4-5": { input: 3, output: 15 },
  "claude-haiku-4-5": { input: 1, output: 5 },
  "claude-3-7-sonnet": { input: 3, output: 15 },
  "claude-3-5-sonnet": { input: 3, output: 15 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
};

let envCache: { raw: string | undefined; prices: ModelPrices } | undefined;

/** MODEL_PRICES parsed; a malformed value is reported once and ignored (never fatal). */
export function envModelPrices(raw = process.env.MODEL_PRICES): ModelPrices {
  if (envCache && envCache.raw === raw) return envCache.prices;
  let prices: ModelPrices = {};
  if (raw?.trim()) {
    let parsed: unknown;
    let problem: string | undefined;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      problem = `not JSON (${errorMessage(err)})`;
    }
    if (!problem) {
      const result = ModelPricesSchema.safeParse(parsed);
      if (result.success) prices = result.data;
      else problem = z.prettifyError(result.error).replace(/\n/g, "; ");
    }
    if (problem)
      console.warn(
        `[crewdeck] MODEL_PRICES is ignored: ${problem}. Expected JSON like {"openai/gpt-4o": {"input": 2.5, "output": 10}} (USD per 1M tokens).`,
      );
  }
  envCache = { raw, prices };
  return prices;
}

// /status is polled hard: the saved setting is read at most every few seconds per process.
const SETTING_TTL_MS = 5_000;
let settingCache: { at: number; prices: ModelPrices } | undefined;

/** Forget the cached setting (after saving a new one). */
export function forgetModelPrices() {
  settingCache = undefined;
}

/** The price table in force: defaults, then the saved setting, then MODEL_PRICES. */
export async function loadModelPrices(db: Db): Promise<ModelPrices> {
  if (!settingCache || Date.now() - settingCache.at > SETTING_TTL_MS)
    settingCache = { at: Date.now(), prices: await savedModelPrices(db) };
  // The same (frozen) table while neither the setting read nor MODEL_PRICES changed.
  const saved = settingCache.prices;
  const fromEnv = envModelPrices();
  if (merged?.saved !== saved || merged.fromEnv !== fromEnv)
    merged = {
      saved,
      fromEnv,
      prices: Object.freeze({ ...DEFAULT_MODEL_PRICES, ...saved, ...fromEnv }),
    };
  return merged.prices;
}
let merged: { saved: ModelPrices; fromEnv: ModelPrices; prices: ModelPrices } | undefined;

/**
 * The built-in prices with MODEL_PRICES over them (no saved setting: no database), the same frozen
 * table while MODEL_PRICES is unchanged, so priceFor's lookup map is made once for it.
 */
export function builtInAndEnvPrices(): ModelPrices {
  const fromEnv = envModelPrices();
  if (withEnv?.fromEnv !== fromEnv)
    withEnv = { fromEnv, prices: Object.freeze({ ...DEFAULT_MODEL_PRICES, ...fromEnv }) };
  return withEnv.prices;
}
let withEnv: { fromEnv: ModelPrices; prices: ModelPrices } | undefined;

/** The prices saved from the dashboard (a malformed saved value counts as none). */
export async function savedModelPrices(db: Db): Promise<ModelPrices> {
  const saved = ModelPricesSchema.safeParse(
    (await readSetting(db, MODEL_PRICES_SETTING, z.unknown())) ?? {},
  );
  return saved.success ? saved.data : {};
}

/** One spelling per model: lower case, LiteLLM's provider aliases resolved (`ollama_chat/` → `ollama/`). */
export function normalizeModelId(id: string) {
  const lower = id.trim().toLowerCase();
  const slash = lower.indexOf("/");
  if (slash < 0) return lower;
  const provider = lower.slice(0, slash);
  return `${canonicalProvider(provider)}${lower.slice(slash)}`;
}

/**
 * The price of a model id as agents name it (`openai/gpt-4o-mini`, `gpt-4o-mini`, `offline`,
 * `openrouter/openai/gpt-4o`): the exact id first, then without its provider prefix, then its
 * last part, then the longest known name it starts with (so dated snapshots such as
 * `claude-sonnet-4-5-20250929` find `claude-sonnet-4-5`), then the provider's `<provider>/*`.
 */
// Price tables by normalized model id, made once per table object: a run's cost looks up each of
// its models twice on every /status poll. The tables loadModelPrices hands out are frozen.
const normalizedTables = new WeakMap<ModelPrices, Map<string, ModelPrice>>();
function normalizedTable(prices: ModelPrices) {
  let table = normalizedTables.get(prices);
  if (!table) {
    table = new Map(Object.entries(prices).map(([k, v]) => [normalizeModelId(k), v]));
    if (Object.isFrozen(prices)) normalizedTables.set(prices, table);
  }
  return table;
}

export function priceFor(model: string, prices: ModelPrices): ModelPrice | undefined {
  const table = normalizedTable(prices);
  const id = normalizeModelId(model);
  const bare = id.includes("/") ? id.slice(id.indexOf("/") + 1) : id;
  const last = id.slice(id.lastIndexOf("/") + 1);
  const exact = table.get(id) ?? table.get(bare) ?? table.get(last);
  if (exact) return exact;
  let best: [string, ModelPrice] | undefined;
  for (const [name, price] of table) {
    const key = name.includes("/") ? name.slice(name.indexOf("/") + 1) : name;
    if (
      (last.startsWith(`${key}-`) || last.startsWith(`${key}@`)) &&
      key.length > (best?.[0].length ?? 0)
    )
      best = [key, price];
  }
  if (best) return best[1];
  return id.includes("/") ? table.get(`${id.slice(0, id.indexOf("/"))}/*`) : undefined;
}

export type ModelUsage = { model: string; input_tokens: number; output_tokens: number };

/** The estimated cost of some usage: usd null only when every model used has no price. */
export function estimateCost(usages: ModelUsage[], prices: ModelPrices) {
  const models = [...new Set(usages.map((u) => u.model))];
  const unpriced = models.filter((m) => !priceFor(m, prices));
  let usd = 0;
  for (const u of usages) {
    const price = priceFor(u.model, prices);
    if (price) usd += (u.input_tokens * price.input + u.output_tokens * price.output) / 1_000_000;
  }
  return {
    usd: models.length > 0 && unpriced.length === models.length ? null : round(usd),
    estimated: true as const,
    models,
    unpriced_models: unpriced,
  };
}

const round = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

/** The cost of a run's tasks' recorded usage (each task runs on its agent's one model). */
export function tasksCost(tasks: TaskState[], prices: ModelPrices) {
  return estimateCost(
    tasks.flatMap((t) =>
      t.models?.[0] && t.token_usage
        ? [
            {
              model: t.models[0],
              input_tokens: t.token_usage.input_tokens,
              output_tokens: t.token_usage.output_tokens,
            },
          ]
        : [],
    ),
    prices,
  );
}
