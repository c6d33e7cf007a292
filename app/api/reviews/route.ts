// GET /api/reviews?scope=mine|team|all&limit=N — the open reviews the caller may see (the inbox).

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listOpenReviews } from "@/lib/reviews/list-reviews";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.listReviews, async ({ principal, query }) =>
  json(
    await listOpenReviews({
      db: await getDb(),
      principal,
      scope: query.scope,
      limit: query.limit,
    }),
  ),
);
