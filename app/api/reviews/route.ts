// GET /api/reviews?scope=mine|team|all&limit=N — the open reviews the caller may see (the inbox).

import type { z } from "zod";
import { ReviewsQuerySchema, ReviewsResponseSchema } from "@/lib/contract/reviews";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, type NoParams } from "@/lib/http/routes";
import { listOpenReviews } from "@/lib/reviews/list-reviews";

export const dynamic = "force-dynamic";

export const GET = apiRoute<NoParams, undefined, z.infer<typeof ReviewsQuerySchema>>(
  async ({ principal, query }) =>
    json(
      await listOpenReviews({
        db: await getDb(),
        principal,
        scope: query.scope,
        limit: query.limit,
      }),
    ),
  { query: ReviewsQuerySchema, response: ReviewsResponseSchema },
);
