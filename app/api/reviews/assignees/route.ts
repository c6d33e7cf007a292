// GET /api/reviews/assignees — whom a review may be reassigned to (the reassign picker).
import { AssigneeOptionsSchema } from "@/lib/contract/reviews";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute, otherMethods } from "@/lib/http/routes";
import { assigneeOptions } from "@/lib/reviews/assignee-options";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await assigneeOptions(await getDb())), {
  action: "review",
  response: AssigneeOptionsSchema,
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
