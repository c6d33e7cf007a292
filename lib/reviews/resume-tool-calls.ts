import type { ResumeRequest } from "@/lib/contract/crew";
import { errors } from "@/lib/errors";
import { valueErrors } from "@/lib/outputs/structured-output";
import type { OpenReview } from "@/lib/run-model/review-types";
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
  const calls = review.tool_calls ?? [];
  const waiting = undecidedCalls(review);
  let targets = waiting;
  if (request.call_id) {
    const call = calls.find((c) => c.call_id === request.call_id);
    if (!call)
      throw errors.notFound(
        `Task '${review.task_id}' has no tool call '${request.call_id}' awaiting review (awaiting: ${waiting.map((c) => c.call_id).join(", ")}).`,
      );
    if (call.decision) {
      if (
        call.decision.approved === request.is_approve &&
        call.decision.reason === request.human_feedback
      )
        return {
          change: {},
          result: {
            status: "waiting",
            message: `Already recorded: your decision on call '${call.call_id}'.`,
          },
        };
      throw errors.conflict(
        `Tool call '${call.call_id}' was already ${call.decision.approved ? "approved" : "refused"} by ${call.decision.reviewer} at ${call.decision.at}.`,
        { reviewed_by: call.decision.reviewer, reviewed_at: call.decision.at },
      );
    }
    targets = [call];
  }
  const edited = request.edited_arguments;
  if (edited !== undefined) {
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
  const what = targets.map((c) => `'${c.tool}'`).join(", ");
  const verdict = request.is_approve ? "approved" : "refused";
  if (!closed)
    return {
      change,
      result: {
        status: "waiting",
        message: `${what} ${verdict}; ${waiting.length - targets.length} more tool call(s) of task '${review.task_id}' await a decision.`,
      },
    };
  const status = change.patch?.status ?? row.status;
  return {
    change,
    result:
      status === "pending_human_input"
        ? {
            status: "waiting",
            message: `${what} ${verdict}; the execution still awaits other review(s).`,
          }
        : {
            status: "resumed",
            message: `${what} ${verdict}; task '${review.task_id}' goes on${request.is_approve ? " with the call" : " without it"}.`,
          },
  };
}
