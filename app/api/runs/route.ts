// GET /api/runs — executions across crews, newest first, filtered and paginated (the runs table).
// `meta=key:value` may repeat (every one must match); from > to is a 422.

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import type { RunsPage } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { listExecutions } from "@/lib/runs/list-executions";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.listRuns, async ({ principal, query }) => {
  const db = await getDb();
  const page: RunsPage = await listExecutions({
    db,
    principal,
    query,
    prices: await loadModelPrices(db),
  });
  return json(page);
});
