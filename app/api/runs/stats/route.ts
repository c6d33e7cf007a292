// GET /api/runs/stats?days=14 — the overview's counts and per-day series (1..90 days, today
// included): outcomes, p50/p95 duration, review wait, tokens and estimated cost, plus totals.

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import type { RunStats } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { executionStats } from "@/lib/runs/execution-stats";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.runStats, async ({ principal, query }) => {
  const db = await getDb();
  const stats: RunStats = await executionStats({
    db,
    principal,
    days: query.days,
    prices: await loadModelPrices(db),
  });
  return json(stats);
});
