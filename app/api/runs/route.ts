// GET /api/runs — executions across crews, newest first, filtered and paginated (the runs table).
// `meta=key:value` may repeat (every one must match); from > to is a 422.

import type { RunsPage } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { type ListQuery, ListQuerySchema, listExecutions } from "@/lib/runs/list-executions";
import { loadModelPrices } from "@/lib/runs/pricing";

export const dynamic = "force-dynamic";

// The query's single values are parsed by the builder; a repeated `meta` is read here.
const MetaOnly = ListQuerySchema.pick({ meta: true });

export const GET = apiRoute<NoParams, undefined, ListQuery>(
  async ({ principal, query, request }) => {
    const metas = new URL(request.url).searchParams.getAll("meta");
    const meta = metas.length > 1 ? MetaOnly.safeParse({ meta: metas }) : undefined;
    if (meta && !meta.success)
      throw errors.badRequest("meta filters are key:value (e.g. meta=team:growth).");
    const db = await getDb();
    const page: RunsPage = await listExecutions({
      db,
      principal,
      query: meta?.success ? { ...query, meta: meta.data.meta } : query,
      prices: await loadModelPrices(db),
    });
    return json(page);
  },
  { query: ListQuerySchema },
);
