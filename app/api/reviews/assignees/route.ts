// GET /api/reviews/assignees — whom a review may be reassigned to (the reassign picker).
import * as runsApi from "@/lib/api/endpoints/runs";
import { apiRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { assigneeOptions } from "@/lib/reviews/assignee-options";

export const dynamic = "force-dynamic";

export const GET = apiRoute(runsApi.reviewAssignees, async () =>
  json(await assigneeOptions(await getDb())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
