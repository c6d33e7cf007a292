import type { ResumeRequest } from "@/lib/contract/crew";
import { AppError, errors } from "@/lib/errors";
import { valueErrors } from "@/lib/outputs/structured-output";
import { claimHolds, openReviewsOf } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { mayDecide, type Person } from "./assignment";
import { approve, type Decider, type Decision, sendBack } from "./decide";
import { notOpen, type ResumeResult, replayOf, toolReplayOf } from "./resume-replays";
import { decideToolCallRequest } from "./resume-tool-calls";

// A reviewer's decision as the locked row takes it: what changes in the run and what the API
// answers, or the error that refuses it. Decisions on the row alone, without a database.

type Decided = { change: Change; result: ResumeResult };

/** Edits come with an approval only: a refusal or a sending back says why in its feedback. */
export function refuseEditsWithoutApproval(request: ResumeRequest): void {
  if (request.edited_arguments !== undefined && !request.is_approve)
    throw errors.badRequest(
      "edited_arguments come with an approval (is_approve: true); to refuse the call, say why in human_feedback.",
      [{ path: "edited_arguments", message: "only with is_approve: true" }],
    );
  if (request.edited_output !== undefined && !request.is_approve)
    throw errors.badRequest(
      "edited_output comes with an approval (is_approve: true); to send a task back, say what to change in human_feedback.",
      [{ path: "edited_output", message: "only with is_approve: true" }],
    );
}

/**
 * The decision applied to the run: a repeat is answered as the first was; a tool call's review
 * decides the calls; an output's review approves the task or sends it back.
 */
export function decideResume(
  row: ExecutionRow,
  request: ResumeRequest,
  { who, person }: { who: Decider; person: Person | null },
  now: Date,
): Decided {
  const replay = replayOf(row, request) ?? toolReplayOf(row, request);
  if (replay) return { change: {}, result: replay };
  const { index, review } = reviewToDecide(row, request, person, now);
  if (review.tool_calls) {
    if (request.edited_output !== undefined)
      throw errors.badRequest(
        `Task '${review.task_id}' awaits approval of tool calls, not of its output: to change a call, send edited_arguments with its call_id.`,
        [{ path: "edited_output", message: "no output awaits review" }],
      );
    return decideToolCallRequest(row, review, who, request, now);
  }
  const def = row.crew_snapshot.tasks[index];
  const response = checkedResponse(request, def?.review?.response_schema);
  const outcome = checkedOutcome(row, request);
  const decision: Decision = {
    feedback: request.human_feedback,
    ...(response ? { response } : {}),
    ...(outcome !== undefined ? { outcome } : {}),
    webhooks: {
      task: request.taskWebhookUrl,
      step: request.stepWebhookUrl,
      crew: request.crewWebhookUrl,
    },
  };
  if (!request.is_approve) return sentBack(row, index, review, who, decision, now);
  return approved(row, review, who, { decision, edited: request.edited_output }, now);
}

/**
 * The open review the request names, once this person may decide it now: 404 for a task the run
 * lacks, 409/400 when it is not open, 400 for a tool call's fields on an output's review, 403 when
 * assigned to others, 409 while someone else's claim holds.
 */
export function reviewToDecide(
  row: ExecutionRow,
  request: ResumeRequest,
  person: Person | null,
  now: Date,
): { index: number; review: OpenReview } {
  const index = row.tasks.findIndex((t) => t.task_id === request.task_id);
  if (index < 0)
    throw errors.notFound(
      `Execution ${row.id} has no task '${request.task_id}' (its tasks: ${row.tasks.map((t) => t.task_id).join(", ")}).`,
    );
  const reviews = openReviewsOf(row);
  const review = reviews.find((r) => r.task_id === request.task_id);
  if (!review) throw notOpen(row, request.task_id, reviews);
  if (!review.tool_calls && (request.call_id || request.edited_arguments))
    throw errors.badRequest(
      `Task '${review.task_id}' awaits review of its output, not of a tool call: leave out call_id and edited_arguments.`,
      [
        {
          path: request.call_id ? "call_id" : "edited_arguments",
          message: "no tool call awaits review",
        },
      ],
    );
  if (!mayDecide(review, person))
    throw new AppError(
      "forbidden",
      403,
      `This review of task '${review.task_id}' is assigned to ${review.assignees.join(", ")}; ask one of them, or an administrator, to decide it.`,
      { assignees: review.assignees },
    );
  // A claim holds against everyone but its holder, organization tokens included: a program
  // that must decide anyway releases the claim first, so the override is on the record.
  if (claimHolds(review.claim, now) && review.claim.user_id !== person?.user_id)
    throw errors.conflict(
      person && person.role !== "admin"
        ? `${review.claim.by} is reviewing task '${review.task_id}' (claimed until ${review.claim.until}); wait for them to release it, or ask them to.`
        : `${review.claim.by} is reviewing task '${review.task_id}' (claimed until ${review.claim.until}); to decide it anyway, release the claim first (POST …/executions/${row.id}/reviews/${review.task_id} with {"action":"release"}), which the run's log records.`,
      { claimed_by: review.claim.by, claimed_until: review.claim.until },
    );
  return { index, review };
}

/** The task goes back to its agent with the feedback, within its review rounds (409 past them). */
function sentBack(
  row: ExecutionRow,
  index: number,
  review: OpenReview,
  who: Decider,
  decision: Decision,
  now: Date,
): Decided {
  const rounds = (row.tasks[index]?.reviews ?? []).filter((r) => !r.is_approve).length;
  const max = row.crew_snapshot.tasks[index]?.max_review_rounds;
  if (max !== undefined && rounds >= max)
    throw errors.conflict(
      `Task '${review.task_id}' has used all ${max} review rounds; approve it or stop the execution.`,
      { max_review_rounds: max },
    );
  const change = sendBack(row, review, who, decision, now);
  const result: ResumeResult = row.crew_snapshot.flow
    ? { status: "resumed", message: `Feedback on '${review.task_id}' recorded; the flow goes on.` }
    : {
        status: "retrying",
        message: `Task '${review.task_id}' will run again (attempt ${review.attempt + 1}) with your feedback.`,
      };
  return { change, result };
}

/**
 * An approval, with the output as edited if it differs. The same person approving again is
 * answered as recorded (409 if they would change the output again).
 */
function approved(
  row: ExecutionRow,
  review: OpenReview,
  who: Decider,
  { decision, edited: sent }: { decision: Decision; edited: string | undefined },
  now: Date,
): Decided {
  const edited = sent !== undefined && sent !== review.output ? sent : undefined;
  const mine = review.approvals.find((a) => a.user_id === who.user_id && a.reviewer === who.name);
  if (mine) {
    if (edited !== undefined)
      throw errors.conflict(
        `You approved task '${review.task_id}' already; another reviewer must approve (or send it back) before it changes again.`,
      );
    return {
      change: {},
      result: {
        status: "approval_recorded",
        message: `Already recorded: your approval of task '${review.task_id}' (${review.approvals.length} of ${review.required_approvals}).`,
        approvals: { count: review.approvals.length, required: review.required_approvals },
      },
    };
  }
  const withEdit = { ...decision, ...(edited !== undefined ? { edited_output: edited } : {}) };
  const { change, effect, approvals } = approve(row, review, who, withEdit, now);
  return { change, result: approvalResult(row, review, change, effect, approvals) };
}

/** What an approval answers: counted toward a quorum, or where the run stands after it. */
export function approvalResult(
  row: ExecutionRow,
  review: Pick<OpenReview, "task_id" | "required_approvals">,
  change: Change,
  effect: ReturnType<typeof approve>["effect"],
  approvals: number,
): ResumeResult {
  const tally = { count: approvals, required: review.required_approvals };
  if (effect === "approval_recorded")
    return {
      status: "approval_recorded",
      message: `Approval ${approvals} of ${review.required_approvals} recorded for task '${review.task_id}'; ${review.required_approvals - approvals} more needed.`,
      approvals: tally,
    };
  const quorum = review.required_approvals > 1 ? { approvals: tally } : {};
  const status = change.patch?.status ?? row.status;
  if (status === "completed")
    return {
      status: "completed",
      message: `Task '${review.task_id}' approved; the execution is complete.`,
      ...quorum,
    };
  if (status === "pending_human_input")
    return {
      status: "waiting",
      message: `Task '${review.task_id}' approved; the execution still awaits ${openReviewsOf({ ...row, ...change.patch }).length} other review(s).`,
      ...quorum,
    };
  return {
    status: "resumed",
    message: `Task '${review.task_id}' approved; the execution continues.`,
    ...quorum,
  };
}

/** The reviewer's answers, checked against the task's response form (422 when they do not fit). */
function checkedResponse(
  request: ResumeRequest,
  schema: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!schema) return request.review_response;
  // The form is the approver's: sending back needs only feedback.
  if (request.review_response === undefined && !request.is_approve) return undefined;
  if (request.review_response === undefined)
    throw errors.unprocessable(
      `Task '${request.task_id}' asks its reviewer for a response: send review_response, an object matching its review.response_schema.`,
      { errors: [{ path: "review_response", message: "required" }], response_schema: schema },
    );
  const problems = valueErrors(request.review_response, schema);
  if (problems.length)
    throw errors.unprocessable(
      `review_response does not match task '${request.task_id}''s response_schema: ${problems.join("; ")}.`,
      { errors: problems.map((message) => ({ path: "review_response", message })) },
    );
  return request.review_response;
}

/** The outcome a flow's reviewer chose, checked against the method's (422 when not one of them). */
function checkedOutcome(row: ExecutionRow, request: ResumeRequest): string | undefined {
  if (request.outcome === undefined) return undefined;
  const method = row.crew_snapshot.flow?.methods.find((m) => m.name === request.task_id);
  const emit = method?.feedback?.emit ?? [];
  if (!emit.includes(request.outcome))
    throw errors.unprocessable(
      emit.length
        ? `'${request.outcome}' is not an outcome of '${request.task_id}': choose one of ${emit.join(", ")}.`
        : `'${request.task_id}' has no outcomes to choose from: leave out outcome.`,
      {
        errors: [
          { path: "outcome", message: emit.length ? `one of ${emit.join(", ")}` : "not expected" },
        ],
      },
    );
  return request.outcome;
}
