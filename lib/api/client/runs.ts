import type { ReviewStats, ReviewsResponse, RunStats, RunsPage } from "@/lib/api/schemas";
import { request, schema } from "./request";

// The runs table and the overview: GET /api/runs and GET /api/runs/stats.
export type { InboxReview, ReviewStats, RunRow, RunStats, RunsPage } from "@/lib/api/schemas";

export const runsApi = {
  /** One page of runs; repeat `meta` by passing URLSearchParams or [key, value] pairs. */
  list: (
    filters: Record<string, string> | URLSearchParams | [string, string][],
  ): Promise<RunsPage> =>
    request(schema("RunsPageSchema"), "GET", `/api/runs?${new URLSearchParams(filters)}`),
  /** The last 14 days (usable as a queryFn as it is). */
  stats: (): Promise<RunStats> => request(schema("RunStatsSchema"), "GET", "/api/runs/stats"),
  /** The last `days` days (1..90). */
  statsFor: (days: number): Promise<RunStats> =>
    request(schema("RunStatsSchema"), "GET", `/api/runs/stats?days=${days}`),
  /** How reviews went over the last `days` days (1..90), by crew and by reviewer. */
  reviewStats: (days = 14): Promise<ReviewStats> =>
    request(schema("ReviewStatsSchema"), "GET", `/api/runs/review-stats?days=${days}`),
};

// The inbox: GET /api/reviews.
export const reviewsApi = {
  list: (scope: "mine" | "team" | "all"): Promise<ReviewsResponse> =>
    request(schema("ReviewsResponseSchema"), "GET", `/api/reviews?scope=${scope}`),
};
