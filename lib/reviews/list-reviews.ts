import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { claimHolds, describeReview, openReviewsOf } from "@/lib/run-model/open-reviews";
import { executionColumns } from "@/lib/runs/execution-row";
import { isAssigned, isTeamReview, mayDecide, names, personOf } from "./assignment";

const REVIEW_SCOPES = ["mine", "team", "all"] as const;
export type ReviewScope = (typeof REVIEW_SCOPES)[number];

const c = executionColumns;
const ReviewRunRow = z.object({
  id: c.id,
  crew: c.crew,
  status: c.status,
  inputs: c.inputs,
  open_reviews: c.open_reviews,
  pending_human_input: c.pending_human_input,
  started_by_name: c.started_by_name,
  created_at: c.created_at,
  started_at: c.started_at,
  deployment_id: c.deployment_id,
  tasks: c.tasks,
});

/**
 * Every open review the caller may see, newest request first, with how many fall under each of
 * the inbox's filters: "mine" (named, claimed by them, or open to anyone who may review),
 * "team" (given to a role or team they hold), "all".
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
  const { rows } = await db.query(
    `SELECT id, crew, status, inputs, open_reviews, pending_human_input, started_by_name, created_at,
            started_at, deployment_id, tasks
       FROM executions
      WHERE (status = 'pending_human_input' OR jsonb_array_length(open_reviews) > 0) ${own}
      ORDER BY created_at DESC LIMIT 500`,
    principal.kind === "user" ? [principal.userId] : [],
    ReviewRunRow,
  );
  const now = new Date();
  const all = rows.flatMap((row) =>
    openReviewsOf(row).map((review) => {
      const described = describeReview(review, now);
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
        !review.approvals.some((a) => a.reviewer === person.email) &&
        !(claimHolds(review.claim, now) && review.claim.user_id !== person.user_id);
      return {
        execution_id: row.id,
        crew: row.crew,
        task_name: row.tasks.find((t) => t.task_id === review.task_id)?.name ?? review.task_id,
        inputs: row.inputs,
        started_by: row.started_by_name,
        run_created_at: new Date(row.created_at).toISOString(),
        remote: row.deployment_id !== null,
        ...described,
        scope: { mine, team },
        actionable,
      };
    }),
  );
  all.sort((a, b) => b.requested_at.localeCompare(a.requested_at));
  const counts = {
    mine: all.filter((r) => r.scope.mine).length,
    team: all.filter((r) => r.scope.team).length,
    all: all.length,
    actionable: all.filter((r) => r.actionable).length,
  };
  const reviews = (scope === "all" ? all : all.filter((r) => r.scope[scope])).slice(0, limit);
  return { reviews, counts };
}
