import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { jsonObject } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { claimHolds, describeReview, openReviewsOf } from "@/lib/run-model/open-reviews";
import { executionColumns } from "@/lib/runs/execution-row";
import { isAssigned, isTeamReview, mayDecide, names, type Person, personOf } from "./assignment";
import { INPUTS_PREVIEW } from "./inputs-preview";

const REVIEW_SCOPES = ["mine", "team", "all"] as const;
export type ReviewScope = (typeof REVIEW_SCOPES)[number];

// The inbox's counts are asked for by every dashboard tab every 5 s: they read only each open
// review's head (who may decide, who voted, who holds it), never a run's inputs, tasks or the
// text under review. Those are read for the page of reviews listed, the inputs as a preview.
const ReviewHead = z.object({
  task_id: z.string(),
  requested_at: z.string(),
  assignees: z.array(z.string()),
  voters: z.array(z.string()),
  claim: z.object({ by: z.string(), user_id: z.string().nullable(), until: z.string() }).nullable(),
});
type ReviewHead = z.infer<typeof ReviewHead>;

// A run's open reviews as openReviewsOf sees them (a run paused before reviews were kept has
// only pending_human_input: one review open to anyone), each cut to its head.
const HEADS = `CASE
  WHEN jsonb_array_length(open_reviews) > 0 THEN
    (SELECT jsonb_agg(jsonb_build_object(
              'task_id', r->'task_id', 'requested_at', r->'requested_at',
              'assignees', coalesce(r->'assignees', '[]'::jsonb),
              'voters', coalesce((SELECT jsonb_agg(a->'reviewer') FILTER (WHERE jsonb_typeof(a->'reviewer') = 'string') FROM jsonb_array_elements(r->'approvals') a), '[]'::jsonb),
              'claim', r->'claim') ORDER BY n)
       FROM jsonb_array_elements(open_reviews) WITH ORDINALITY AS x(r, n))
  WHEN status = 'pending_human_input' AND coalesce(pending_human_input->>'task_id', '') <> '' THEN
    jsonb_build_array(jsonb_build_object(
      'task_id', pending_human_input->'task_id',
      'requested_at', coalesce(pending_human_input->'requested_at', to_jsonb('1970-01-01T00:00:00.000Z'::text)),
      'assignees', '[]'::jsonb, 'voters', '[]'::jsonb, 'claim', null))
  ELSE '[]'::jsonb END`;

const c = executionColumns;
const HeadsRow = z.object({ id: c.id, heads: z.array(ReviewHead) });
const PageRow = z.object({
  id: c.id,
  crew: c.crew,
  status: c.status,
  inputs: jsonObject<Record<string, unknown>>(),
  task_names: z.record(z.string(), z.string()),
  open_reviews: c.open_reviews,
  pending_human_input: c.pending_human_input,
  started_by_name: c.started_by_name,
  created_at: c.created_at,
  deployment_id: c.deployment_id,
});

/** Where the person stands on one review: theirs, their team's, and whether they can act now. */
function standing(review: ReviewHead, person: Person | null, now: Date) {
  // Mine: I hold it, I am named, or it is open to anyone who may review (as I may).
  const mine =
    !!person &&
    ((claimHolds(review.claim, now) && review.claim.user_id === person.user_id) ||
      (review.assignees.length
        ? names(
            review.assignees.filter((a) => a.includes("@")),
            person,
          )
        : isAssigned(review, person)));
  const team = !!person && isTeamReview(review, person);
  // What this person can do now: decide it, not having voted, not held by someone else.
  const actionable =
    !!person &&
    (mine || team) &&
    mayDecide(review, person) &&
    !review.voters.includes(person.email) &&
    !(claimHolds(review.claim, now) && review.claim.user_id !== person.user_id);
  return { mine, team, actionable };
}

/**
 * Every open review the caller may see, newest request first, with how many fall under each of
 * the inbox's filters: "mine" (named, claimed by them, or open to anyone who may review),
 * "team" (given to a role or team they hold), "all". `limit` 0 reads the counts only.
 */
export async function listOpenReviews({
  db,
  principal,
  scope,
  limit = 500,
}: {
  db: Db;
  principal: Principal;
  scope: ReviewScope;
  limit?: number;
}) {
  const person = await personOf(db, principal);
  const own = principal.kind === "user" ? "AND owner_user_id = $1" : "";
  const ownParams = principal.kind === "user" ? [principal.userId] : [];
  const { rows } = await db.query(
    `SELECT id, ${HEADS} AS heads
       FROM executions
      WHERE (status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0) ${own}
      ORDER BY created_at DESC LIMIT 500`,
    ownParams,
    HeadsRow,
  );
  const now = new Date();
  const all = rows.flatMap((row) =>
    row.heads.map((head) => ({ id: row.id, head, ...standing(head, person, now) })),
  );
  all.sort((a, b) => b.head.requested_at.localeCompare(a.head.requested_at));
  const counts = {
    mine: all.filter((r) => r.mine).length,
    team: all.filter((r) => r.team).length,
    all: all.length,
    actionable: all.filter((r) => r.actionable).length,
  };
  const page = (scope === "all" ? all : all.filter((r) => r[scope])).slice(0, limit);
  return { reviews: await described(db, page, own, ownParams, now), counts };
}

/** The page's reviews in full, with their runs' crew, task names and inputs' preview. */
async function described(
  db: Db,
  page: { id: string; head: ReviewHead; mine: boolean; team: boolean; actionable: boolean }[],
  own: string,
  ownParams: string[],
  now: Date,
) {
  if (!page.length) return [];
  const ids = [...new Set(page.map((r) => r.id))];
  const { rows } = await db.query(
    `SELECT id, crew, status, ${INPUTS_PREVIEW} AS inputs, open_reviews, pending_human_input,
            started_by_name, created_at, deployment_id,
            (SELECT coalesce(jsonb_object_agg(task_id, name), '{}'::jsonb)
               FROM (SELECT DISTINCT ON (t->>'task_id') t->>'task_id' AS task_id, t->>'name' AS name
                       FROM jsonb_array_elements(tasks) WITH ORDINALITY AS x(t, n)
                      ORDER BY t->>'task_id', n) first
              WHERE task_id IS NOT NULL AND name IS NOT NULL) AS task_names
       FROM executions
      WHERE id IN (SELECT jsonb_array_elements_text($${ownParams.length + 1}::jsonb)::uuid) ${own}`,
    [...ownParams, JSON.stringify(ids)],
    PageRow,
  );
  const runs = new Map(rows.map((row) => [row.id, row]));
  // A review decided between the two reads is left out (the counts are of the first).
  return page.flatMap(({ id, head, mine, team, actionable }) => {
    const row = runs.get(id);
    const review = row && openReviewsOf(row).find((r) => r.task_id === head.task_id);
    if (!row || !review) return [];
    return [
      {
        execution_id: row.id,
        crew: row.crew,
        task_name: row.task_names[review.task_id] ?? review.task_id,
        inputs: row.inputs,
        started_by: row.started_by_name,
        run_created_at: new Date(row.created_at).toISOString(),
        remote: row.deployment_id !== null,
        ...describeReview(review, now),
        scope: { mine, team },
        actionable,
      },
    ];
  });
}
