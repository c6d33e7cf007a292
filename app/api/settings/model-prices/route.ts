// GET/PUT /api/settings/model-prices — the price table behind the runs' estimated cost, in USD per
// million input and output tokens, keyed by model id as agents name it ("openai/gpt-4o-mini" or
// "gpt-4o-mini"). Administrators only.
//
// Precedence: the built-in defaults, then the prices saved here, then the MODEL_PRICES
// environment variable — the environment wins, so an operator's configuration cannot be
// overridden from the dashboard. GET shows each layer and the table in force.
import type { z } from "zod";
import * as adminApi from "@/lib/api/endpoints/admin";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { writeSetting } from "@/lib/db/settings";
import { json } from "@/lib/http/respond";
import {
  DEFAULT_MODEL_PRICES,
  envModelPrices,
  forgetModelPrices,
  loadModelPrices,
  MODEL_PRICES_SETTING,
  type ModelPricesViewSchema,
  savedModelPrices,
} from "@/lib/run-model/pricing";

export const dynamic = "force-dynamic";

async function view(): Promise<z.infer<typeof ModelPricesViewSchema>> {
  const db = await getDb();
  forgetModelPrices();
  return {
    prices: await loadModelPrices(db),
    saved: await savedModelPrices(db),
    environment: envModelPrices(),
    defaults: DEFAULT_MODEL_PRICES,
    precedence: "defaults < saved < MODEL_PRICES (environment wins)",
  };
}

export const GET = apiRoute(adminApi.modelPrices, async () => json(await view()));

export const PUT = apiRoute(adminApi.saveModelPrices, async ({ body }) => {
  await writeSetting(await getDb(), MODEL_PRICES_SETTING, body.prices);
  return json(await view());
});
