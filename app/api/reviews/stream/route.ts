// GET /api/reviews/stream — Server-Sent Events for the inbox: `event: reviews` whenever an open
// review the caller may see appears, changes or goes (a user token: its owner's runs only). It
// carries nothing; the inbox re-reads GET /api/reviews, which shows the caller what they may see.

import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { watchOpenReviews } from "@/lib/events/review-changes";
import { sseResponse } from "@/lib/http/sse";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.streamReviews, async ({ request, principal }) => {
  const db = await getDb();
  return sseResponse(request, principal, ({ send }) =>
    watchOpenReviews(db, principal, () => send("event: reviews\ndata: {}\n\n")),
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
