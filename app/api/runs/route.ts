// GET /api/runs — executions across crews, newest first, filtered and paginated (the runs table).
// `meta=key:value` may repeat (every one must match); from > to is a 422.

import { type RunsPage, RunsPageSchema } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { type ListQuery, ListQuerySchema, listExecutions } from "@/lib/runs/list-executions";

export const dynamic = "force-dynamic";

export const GET = apiRoute<NoParams, undefined, ListQuery>(
  async ({ principal, query }) => {
    const db = await getDb();
    const page: RunsPage = await listExecutions({
      db,
      principal,
      query,
      prices: await loadModelPrices(db),
    });
    return json(page);
  },
  { query: ListQuerySchema, repeatable: ["meta"], response: RunsPageSchema },
);
