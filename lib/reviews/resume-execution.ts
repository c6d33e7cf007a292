import { type Principal, principalName } from "@/lib/auth/principal";
import type { ResumeRequest } from "@/lib/contract/crew";
import { IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { valueErrors } from "@/lib/outputs/structured-output";
import { claimHolds, openReviewsOf } from "@/lib/run-model/open-reviews";
import type { ExecutionRow, TaskState } from "@/lib/run-model/types";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { mutateExecution } from "@/lib/runs/execution-store";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { mayDecide, personOf } from "./assignment";
import { approve, type Decision, sendBack } from "./decide";
import { notOpen, type ResumeResult, replayOf, toolReplayOf } from "./resume-replays";
import { decideToolCallRequest } from "./resume-tool-calls";

/**
 * Applies a reviewer's decision to a task awaiting review: approve → the task is done (under a
 * quorum, once enough people approved) and the run goes on, or completes; reject → the task runs
 * again with the feedback. A repeated identical request (double click, client retry) is answered
 * as the first was, not applied again.
 */
export async function resumeExecution({
  db,
  crew,
  principal,
  request,
}: {
  db: Db;
  crew: string;
  principal: Principal;
  request: ResumeRequest;
}): Promise<ResumeResult> {
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
  const found = await getExecutionOrThrow({ db, crew, id: request.execution_id, principal });
  // A flow's caller knows only the flow: a task of a crew one of its methods runs is decided there.
  const nested = await nestedRunAwaiting(db, found.id, found.tasks, request.task_id);
  if (nested) {
    const decided = await resumeExecution({
      db,
      crew,
      principal,
      request: { ...request, execution_id: nested },
    });
    // The flow's /status shows its nested run's reviews: on this process its next read must see
    // the decision too, not wait for the NOTIFY the nested run's change sends the flow.
    invalidateExecution(found.id);
    return decided;
  }
  await assertWebhookUrlsAllowed(request);
  const person = await personOf(db, principal);
  const who = { name: principalName(principal), user_id: person?.user_id ?? null };
  let result: ResumeResult | undefined;
  await db.tx(async (q) => {
    await q.query("SELECT pg_notify('crewdeck_work', $1)", [request.execution_id]);
    return mutateExecution(q, { id: request.execution_id }, (row) => {
      const replay = replayOf(row, request) ?? toolReplayOf(row, request);
      if (replay) {
        result = replay;
        return {};
      }
      const index = row.tasks.findIndex((t) => t.task_id === request.task_id);
      if (index < 0) {
        throw errors.notFound(
          `Execution ${row.id} has no task '${request.task_id}' (its tasks: ${row.tasks.map((t) => t.task_id).join(", ")}).`,
        );
      }
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
      const now = new Date();

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
      if (review.tool_calls) {
        if (request.edited_output !== undefined)
          throw errors.badRequest(
            `Task '${review.task_id}' awaits approval of tool calls, not of its output: to change a call, send edited_arguments with its call_id.`,
            [{ path: "edited_output", message: "no output awaits review" }],
          );
        const decided = decideToolCallRequest(row, review, who, request, now);
        result = decided.result;
        return decided.change;
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

      if (!request.is_approve) {
        const rounds = (row.tasks[index]?.reviews ?? []).filter((r) => !r.is_approve).length;
        const max = def?.max_review_rounds;
        if (max !== undefined && rounds >= max)
          throw errors.conflict(
            `Task '${review.task_id}' has used all ${max} review rounds; approve it or stop the execution.`,
            { max_review_rounds: max },
          );
        const change = sendBack(row, review, who, decision, now);
        result = row.crew_snapshot.flow
          ? {
              status: "resumed",
              message: `Feedback on '${review.task_id}' recorded; the flow goes on.`,
            }
          : {
              status: "retrying",
              message: `Task '${review.task_id}' will run again (attempt ${review.attempt + 1}) with your feedback.`,
            };
        return change;
      }

      const edited =
        request.edited_output !== undefined && request.edited_output !== review.output
          ? request.edited_output
          : undefined;
      const mine = review.approvals.find(
        (a) => a.user_id === who.user_id && a.reviewer === who.name,
      );
      if (mine) {
        if (edited !== undefined)
          throw errors.conflict(
            `You approved task '${review.task_id}' already; another reviewer must approve (or send it back) before it changes again.`,
          );
        result = {
          status: "approval_recorded",
          message: `Already recorded: your approval of task '${review.task_id}' (${review.approvals.length} of ${review.required_approvals}).`,
          approvals: { count: review.approvals.length, required: review.required_approvals },
        };
        return {};
      }
      const { change, effect, approvals } = approve(
        row,
        review,
        who,
        { ...decision, ...(edited !== undefined ? { edited_output: edited } : {}) },
        now,
      );
      const tally = { count: approvals, required: review.required_approvals };
      if (effect === "approval_recorded") {
        result = {
          status: "approval_recorded",
          message: `Approval ${approvals} of ${review.required_approvals} recorded for task '${review.task_id}'; ${review.required_approvals - approvals} more needed.`,
          approvals: tally,
        };
      } else {
        const status = change.patch?.status ?? row.status;
        result =
          status === "completed"
            ? {
                status: "completed",
                message: `Task '${review.task_id}' approved; the execution is complete.`,
              }
            : status === "pending_human_input"
              ? {
                  status: "waiting",
                  message: `Task '${review.task_id}' approved; the execution still awaits ${openReviewsOf({ ...row, ...change.patch } as ExecutionRow).length} other review(s).`,
                }
              : {
                  status: "resumed",
                  message: `Task '${review.task_id}' approved; the execution continues.`,
                };
        if (review.required_approvals > 1) result.approvals = tally;
      }
      return change;
    });
  });
  // The caller's next /status on this process must see the decision, not wait for the NOTIFY.
  invalidateExecution(request.execution_id);
  return result as ResumeResult;
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

/** The flow's nested run whose task `taskId` awaits review, when the flow has no such method. */
async function nestedRunAwaiting(
  db: Db,
  id: string,
  tasks: TaskState[],
  taskId: string,
): Promise<string | undefined> {
  if (tasks.some((t) => t.task_id === taskId)) return undefined;
  const { rows } = await db.query(
    `SELECT id FROM executions WHERE parent_id = $1 AND status = 'pending_human_input'
        AND open_reviews @> $2::jsonb ORDER BY created_at`,
    [id, JSON.stringify([{ task_id: taskId }])],
    IdRow,
  );
  return rows[0]?.id;
}
