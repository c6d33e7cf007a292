// GET /api/runs/review-stats?days=14&crew= — how reviews went in the overview's window: time to
// first review, approval rate, send-back rounds and timeouts, by crew and by reviewer.
import { type ReviewStats, ReviewStatsQuerySchema, ReviewStatsSchema } from "@/lib/contract/runs";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { reviewAnalytics } from "@/lib/runs/review-analytics";

export const dynamic = "force-dynamic";

export const GET = apiRoute<NoParams, undefined, { days: number; crew?: string }>(
  async ({ principal, query }) => {
    const stats: ReviewStats = await reviewAnalytics({
      db: await getDb(),
      principal,
      days: query.days,
      crew: query.crew,
    });
    return json(stats);
  },
  { query: ReviewStatsQuerySchema, response: ReviewStatsSchema },
);
