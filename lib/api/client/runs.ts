import type { AssigneeOptions, ReviewsResponse } from "@/lib/contract/reviews";
import type { ReviewStats, RunStats, RunsPage } from "@/lib/contract/runs";
import { contract, request } from "./request";

const runSchemas = contract(() => import("@/lib/contract/runs"));
const reviewSchemas = contract(() => import("@/lib/contract/reviews"));

// The runs table and the overview: GET /api/runs and GET /api/runs/stats.
export type { InboxReview } from "@/lib/contract/reviews";
export type { ReviewStats, RunRow, RunStats, RunsPage } from "@/lib/contract/runs";

export const runsApi = {
  /** One page of runs; repeat `meta` by passing URLSearchParams or [key, value] pairs. */
  list: (
    filters: Record<string, string> | URLSearchParams | [string, string][],
  ): Promise<RunsPage> =>
    request(runSchemas("RunsPageSchema"), "GET", `/api/runs?${new URLSearchParams(filters)}`),
  /** The last 14 days (usable as a queryFn as it is). */
  stats: (): Promise<RunStats> => request(runSchemas("RunStatsSchema"), "GET", "/api/runs/stats"),
  /** The last `days` days (1..90). */
  statsFor: (days: number): Promise<RunStats> =>
    request(runSchemas("RunStatsSchema"), "GET", `/api/runs/stats?days=${days}`),
  /** How reviews went over the last `days` days (1..90), by crew and by reviewer. */
  reviewStats: (days = 14): Promise<ReviewStats> =>
    request(runSchemas("ReviewStatsSchema"), "GET", `/api/runs/review-stats?days=${days}`),
};

// The inbox: GET /api/reviews, and the reassign picker's GET /api/reviews/assignees.
export const reviewsApi = {
  list: (scope: "mine" | "team" | "all", limit?: number): Promise<ReviewsResponse> =>
    request(
      reviewSchemas("ReviewsResponseSchema"),
      "GET",
      `/api/reviews?scope=${scope}${limit === undefined ? "" : `&limit=${limit}`}`,
    ),
  /** Whom a review may be reassigned to. */
  assignees: (): Promise<AssigneeOptions> =>
    request(reviewSchemas("AssigneeOptionsSchema"), "GET", "/api/reviews/assignees"),
};
