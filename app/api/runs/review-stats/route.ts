// GET /api/runs/review-stats?days=14&crew= — how reviews went in the overview's window: time to
// first review, approval rate, send-back rounds and timeouts, by crew and by reviewer.

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute } from "@/lib/api/route";
import type { ReviewStats } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { reviewAnalytics } from "@/lib/runs/review-analytics";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.reviewStats, async ({ principal, query }) => {
  const stats: ReviewStats = await reviewAnalytics({
    db: await getDb(),
    principal,
    days: query.days,
    crew: query.crew,
  });
  return json(stats);
});
