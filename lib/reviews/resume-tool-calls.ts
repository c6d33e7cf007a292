import type { ResumeRequest } from "@/lib/contract/crew";
import { errors } from "@/lib/errors";
import { valueErrors } from "@/lib/outputs/structured-output";
import type { OpenReview, ToolCallUnderReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import type { Decider } from "./decide";
import type { ResumeResult } from "./resume-replays";
import { decideToolCalls, undecidedCalls } from "./tool-calls";

/**
 * A decision on gated tool calls: the one `call_id` names, or every call not decided yet. Edited
 * arguments are checked against the tool's own schema (422 naming what is wrong).
 */
export function decideToolCallRequest(
  row: ExecutionRow,
  review: OpenReview,
  who: Decider,
  request: ResumeRequest,
  now: Date,
): { change: Change; result: ResumeResult } {
  const waiting = undecidedCalls(review);
  const named = request.call_id ? namedCall(review, request) : undefined;
  if (named && "repeat" in named) return { change: {}, result: named.repeat };
  const targets = named ? [named.call] : waiting;
  const edited = request.edited_arguments;
  if (edited !== undefined) checkEditedArguments(review, targets, edited);
  const { change, closed } = decideToolCalls(
    row,
    review,
    who,
    {
      approved: request.is_approve,
      call_ids: targets.map((c) => c.call_id),
      ...(edited !== undefined && JSON.stringify(edited) !== JSON.stringify(targets[0]?.arguments)
        ? { edited_arguments: edited }
        : {}),
      feedback: request.human_feedback,
      webhooks: {
        task: request.taskWebhookUrl,
        step: request.stepWebhookUrl,
        crew: request.crewWebhookUrl,
      },
    },
    now,
  );
  const left = closed ? undefined : waiting.length - targets.length;
  const status = change.patch?.status ?? row.status;
  return { change, result: toolCallsResult(review, targets, request.is_approve, left, status) };
}

/**
 * The call `call_id` names, not decided yet; the same decision on it again is answered as
 * recorded. 404 for a call the review lacks, 409 for a different decision on a decided one.
 */
function namedCall(
  review: OpenReview,
  request: ResumeRequest,
): { call: ToolCallUnderReview } | { repeat: ResumeResult } {
  const call = (review.tool_calls ?? []).find((c) => c.call_id === request.call_id);
  if (!call)
    throw errors.notFound(
      `Task '${review.task_id}' has no tool call '${request.call_id}' awaiting review (awaiting: ${undecidedCalls(
        review,
      )
        .map((c) => c.call_id)
        .join(", ")}).`,
    );
  if (!call.decision) return { call };
  if (
    call.decision.approved === request.is_approve &&
    call.decision.reason === request.human_feedback
  )
    return {
      repeat: {
        status: "waiting",
        message: `Already recorded: your decision on call '${call.call_id}'.`,
      },
    };
  throw errors.conflict(
    `Tool call '${call.call_id}' was already ${call.decision.approved ? "approved" : "refused"} by ${call.decision.reviewer} at ${call.decision.at}.`,
    { reviewed_by: call.decision.reviewer, reviewed_at: call.decision.at },
  );
}

/** Edited arguments are for one call, and must fit its tool's parameters (422 otherwise). */
function checkEditedArguments(
  review: OpenReview,
  targets: ToolCallUnderReview[],
  edited: unknown,
): void {
  const [only, ...more] = targets;
  if (!only || more.length)
    throw errors.unprocessable(
      `Task '${review.task_id}' waits on ${targets.length} tool calls: name the one whose arguments you edit with call_id.`,
      { errors: [{ path: "call_id", message: "required with edited_arguments here" }] },
    );
  const problems = valueErrors(edited, only.input_schema);
  if (problems.length)
    throw errors.unprocessable(
      `edited_arguments do not fit the parameters of '${only.tool}': ${problems.join("; ")}.`,
      {
        errors: problems.map((message) => ({ path: "edited_arguments", message })),
        input_schema: only.input_schema,
      },
    );
}

/**
 * What a decision on tool calls answers: how many calls still wait (`left`, while the review is
 * open), or, once it closed, whether the run waits on other reviews or the task goes on.
 */
export function toolCallsResult(
  review: Pick<OpenReview, "task_id">,
  targets: Pick<ToolCallUnderReview, "tool">[],
  approved: boolean,
  left: number | undefined,
  status: ExecutionRow["status"],
): ResumeResult {
  const what = targets.map((c) => `'${c.tool}'`).join(", ");
  const verdict = approved ? "approved" : "refused";
  if (left !== undefined)
    return {
      status: "waiting",
      message: `${what} ${verdict}; ${left} more tool call(s) of task '${review.task_id}' await a decision.`,
    };
  if (status === "pending_human_input")
    return {
      status: "waiting",
      message: `${what} ${verdict}; the execution still awaits other review(s).`,
    };
  return {
    status: "resumed",
    message: `${what} ${verdict}; task '${review.task_id}' goes on${approved ? " with the call" : " without it"}.`,
  };
}
