import {
  AssigneeOptionsSchema,
  ReviewsQuerySchema,
  ReviewsResponseSchema,
} from "@/lib/contract/reviews";
import {
  ReviewStatsQuerySchema,
  ReviewStatsSchema,
  RunStatsQuerySchema,
  RunStatsSchema,
  RunsPageSchema,
} from "@/lib/contract/runs";
import { ListQuerySchema } from "@/lib/runs/list-executions";
import {
  SavedViewInputSchema,
  SavedViewSchema,
  SavedViewsResponseSchema,
} from "@/lib/views/schema";
import { endpoint } from "./endpoint";
import { read, review } from "./shared";

// Executions across crews (the runs table and the overview) and the saved views of that table.
const tag = "Runs";

export const listRuns = endpoint({
  method: "GET",
  path: "/api/runs",
  operationId: "listRuns",
  tag,
  summary: "Executions across crews, newest first, filtered and paginated",
  description:
    "`meta=key:value` may repeat (every one must match). A user token sees only the executions it started. Page with `cursor` from `next_cursor` / `prev_cursor`.",
  access: read,
  query: ListQuerySchema,
  repeatable: ["meta"],
  responses: { 200: { description: "One page.", schema: RunsPageSchema } },
  problems: {
    400: "Invalid query (a bad cursor, a meta filter that is not key:value).",
    422: "`from` is after `to`.",
  },
});

export const runStats = endpoint({
  method: "GET",
  path: "/api/runs/stats",
  operationId: "runStats",
  tag,
  summary: "Counts and per-day series of the last `days` days",
  description:
    "Outcomes, p50/p95 duration, review wait, tokens and estimated cost per day (today included), and totals.",
  access: read,
  query: RunStatsQuerySchema,
  responses: { 200: { description: "OK", schema: RunStatsSchema } },
  problems: { 400: "`days` is not a whole number from 1 to 90." },
});

export const listReviews = endpoint({
  method: "GET",
  path: "/api/reviews",
  operationId: "listReviews",
  tag,
  summary: "Open reviews across runs (the inbox)",
  description:
    "Every review waiting for a decision that the caller may see, newest request first, with the counts under each filter. A user token sees its own runs' reviews.",
  access: read,
  query: ReviewsQuerySchema,
  responses: { 200: { description: "OK", schema: ReviewsResponseSchema } },
  problems: {
    400: "`scope` is not mine, team or all, or `limit` is not a whole number from 0 to 500.",
  },
});

export const reviewAssignees = endpoint({
  method: "GET",
  path: "/api/reviews/assignees",
  operationId: "reviewAssignees",
  tag,
  summary: "Whom a review may be reassigned to",
  description:
    "The active people whose role may review (e-mail, name, role), the roles that may review and every team someone holds, each with how many reviewers it reaches. For the reassign picker; `assignees` on a reassign takes any of these names.",
  access: review,
  responses: { 200: { description: "OK", schema: AssigneeOptionsSchema } },
});

export const streamReviews = endpoint({
  method: "GET",
  path: "/api/reviews/stream",
  operationId: "streamReviews",
  tag,
  summary: "Open reviews changed, live, as Server-Sent Events",
  description:
    "An `event: reviews` (with empty data) whenever a review the caller may see appears, is claimed, voted on, reassigned, released or decided (a user token: reviews of its owner's runs only): re-read `GET /api/reviews`. A comment is sent every 15 s to keep the connection open.",
  access: read,
  responses: {
    200: {
      description: "An `text/event-stream` of change notices.",
      mediaType: "text/event-stream",
      schema: { type: "string", example: "retry: 1000\n\nevent: reviews\ndata: {}\n\n" },
    },
  },
  problems: {
    429: "Too many open event streams for this caller.",
    503: "The server holds as many event streams as it may.",
  },
});

export const reviewStats = endpoint({
  method: "GET",
  path: "/api/runs/review-stats",
  operationId: "reviewStats",
  tag,
  summary: "How reviews went in the last `days` days, by crew and by reviewer",
  description:
    "From the review events of the runs created in the window (a user token sees only its own runs): time from a review request to the first person's action on it (p50/p95), approval rate (final decisions; a quorum's single votes count only for their reviewer), send-back rounds per reviewed task, and timeouts by action.",
  access: read,
  query: ReviewStatsQuerySchema,
  responses: { 200: { description: "OK", schema: ReviewStatsSchema } },
  problems: { 400: "`days` is not a whole number from 1 to 90, or `crew` is empty or too long." },
});

export const listViews = endpoint({
  method: "GET",
  path: "/api/views",
  operationId: "listViews",
  tag,
  summary: "The caller's saved views of the runs list",
  description:
    "Views belong to a person: a user token or the dashboard's session, not the organization.",
  access: { action: "read", inside: "self" },
  responses: { 200: { description: "OK", schema: SavedViewsResponseSchema } },
});

export const saveView = endpoint({
  method: "POST",
  path: "/api/views",
  operationId: "saveView",
  tag,
  summary: "Save a view (a view of the same name is replaced)",
  access: { action: "read", inside: "self" },
  body: { schema: SavedViewInputSchema, limit: 16 * 1024 },
  responses: {
    200: { description: "Replaced the caller's view of that name.", schema: SavedViewSchema },
    201: { description: "Saved.", schema: SavedViewSchema },
  },
  problems: {
    400: "Malformed JSON or wrong types.",
    409: "At most 100 views per person.",
    413: "Body over 16 KiB.",
    422: "A field is missing or out of range.",
  },
});

export const deleteView = endpoint({
  method: "DELETE",
  path: "/api/views/{id}",
  operationId: "deleteView",
  tag,
  summary: "Delete one of the caller's saved views",
  access: { action: "read", inside: "self" },
  responses: { 204: { description: "Deleted." } },
  problems: { 404: "No such view of the caller's." },
});
