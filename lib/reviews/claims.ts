import { z } from "zod";
import { type Principal, principalName } from "@/lib/auth/principal";
import { ROLES } from "@/lib/auth/roles";
import { env } from "@/lib/config/env";
import { normalizeAssignees } from "@/lib/crew/review-policy";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import {
  claimHolds,
  describeReview,
  openReviewsOf,
  reviewColumns,
} from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { NewEvent } from "@/lib/run-model/types";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { mutateExecution } from "@/lib/runs/execution-store";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { isOneOf } from "@/lib/util/one-of";
import { mayDecide, type Person, personOf } from "./assignment";

export type ReviewAction =
  | { action: "claim" }
  | { action: "release" }
  | { action: "reassign"; assignees: string[] };

/**
 * Claim a review (others see who holds it, and cannot decide it until the claim is released or
 * runs out), release it, or hand it to other people or roles. Each is recorded in the run's log.
 */
export async function actOnReview({
  db,
  crew,
  id,
  taskId,
  principal,
  request,
}: {
  db: Db;
  crew: string;
  id: string;
  taskId: string;
  principal: Principal;
  request: ReviewAction;
}) {
  await getExecutionOrThrow({ db, crew, id, principal });
  const person = await personOf(db, principal);
  if (request.action === "claim" && !person)
    throw errors.unprocessable(
      "A claim says which person is reviewing: sign in, or use a personal token (an organization token is no one).",
    );
  const assignees =
    request.action === "reassign" ? await knownAssignees(db, request.assignees) : [];
  const by = principalName(principal);
  let described: ReturnType<typeof describeReview> | undefined;
  await db.tx((q) =>
    mutateExecution(q, { id }, (row) => {
      const reviews = openReviewsOf(row);
      const review = reviews.find((r) => r.task_id === taskId);
      if (!review)
        throw new AppError(
          "not-awaiting-review",
          row.tasks.some((t) => t.task_id === taskId) ? 409 : 404,
          row.tasks.some((t) => t.task_id === taskId)
            ? `Task '${taskId}' is not awaiting review (the execution is ${row.status}).`
            : `Execution ${id} has no task '${taskId}'.`,
        );
      if (!row.open_reviews?.length)
        throw errors.conflict(
          "This review comes from a remote deployment or an older run: it can be decided, not claimed or reassigned.",
        );
      const now = new Date();
      const { review: updated, events } = apply(review, request, { by, person, assignees }, now);
      described = describeReview(updated, now);
      if (!events.length) return {};
      const next = reviews.map((r) => (r.task_id === taskId ? updated : r));
      return { patch: reviewColumns(next, row.tasks), events };
    }),
  );
  invalidateExecution(id); // this process's next /status shows it at once
  return described;
}

function apply(
  review: OpenReview,
  request: ReviewAction,
  { by, person, assignees }: { by: string; person: Person | null; assignees: string[] },
  now: Date,
): { review: OpenReview; events: NewEvent[] } {
  const event = (type: string, data: Record<string, unknown>): NewEvent => ({
    type,
    task_id: review.task_id,
    attempt: review.attempt,
    data,
  });
  const held = claimHolds(review.claim, now) ? review.claim : null;
  const mine = held && person && held.user_id === person.user_id;
  const admin = !person || person.role === "admin";

  if (request.action === "claim") {
    if (!mayDecide(review, person))
      throw new AppError(
        "forbidden",
        403,
        `This review is assigned to ${review.assignees.join(", ")}; it cannot be claimed by you.`,
      );
    if (held && !mine)
      throw errors.conflict(
        `${held.by} is reviewing this (claimed until ${held.until}); they may release it, or it frees itself then.`,
        { claimed_by: held.by, claimed_until: held.until },
      );
    const until = new Date(now.getTime() + env().REVIEW_CLAIM_MINUTES * 60_000).toISOString();
    const claim = { by, user_id: person?.user_id ?? null, until };
    const events = [
      // Someone else's claim that ran out ends in the log before the new one starts.
      ...(review.claim && !held && review.claim.user_id !== claim.user_id
        ? [event("review_released", { by: review.claim.by, reason: "expired" })]
        : []),
      event("review_claimed", { by, until, output_sha256: review.output_sha256 }),
    ];
    return { review: { ...review, claim }, events };
  }

  if (request.action === "release") {
    if (!held) return { review: { ...review, claim: null }, events: [] };
    if (!mine && !admin)
      throw new AppError(
        "forbidden",
        403,
        `${held.by} holds this review; only they or an administrator may release it.`,
      );
    return {
      review: { ...review, claim: null },
      events: [event("review_released", { by, reason: "released" })],
    };
  }

  if (!admin && !mine && !mayDecide(review, person))
    throw new AppError(
      "forbidden",
      403,
      "Only an assignee, the reviewer holding it or an administrator may reassign this review.",
    );
  return {
    review: { ...review, assignees, claim: null },
    events: [event("review_reassigned", { by, from: review.assignees, to: assignees })],
  };
}

/** Assignees that reach someone: e-mails of active users, roles, or teams someone is in. */
async function knownAssignees(q: Queryable, list: string[]): Promise<string[]> {
  const assignees = normalizeAssignees(list.map((a) => a.trim()).filter(Boolean));
  if (!assignees.length)
    throw errors.unprocessable("Say who takes the review: one or more e-mails, roles or teams.", {
      errors: [{ path: "assignees", message: "required" }],
    });
  const { rows } = await q.query(
    "SELECT lower(email) AS email, teams FROM users WHERE disabled_at IS NULL",
    [],
    z.object({ email: z.string(), teams: z.array(z.string()) }),
  );
  const emails = new Set(rows.map((r) => r.email));
  const teams = new Set(rows.flatMap((r) => r.teams));
  const unknown = assignees.filter((a) =>
    a.includes("@") ? !emails.has(a) : !isOneOf(ROLES, a) && !teams.has(a),
  );
  if (unknown.length)
    throw errors.unprocessable(
      `No one would get this review: ${unknown.join(", ")} ${unknown.length > 1 ? "are" : "is"} not a person, role or team here.`,
      { errors: unknown.map((a) => ({ path: "assignees", message: `unknown: ${a}` })) },
    );
  return assignees;
}
