import type { ResumeRequest } from "@/lib/contract/crew";
import { AppError, errors } from "@/lib/errors";
import { openReviewsOf } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";

// What a decision finds when the review it names is no longer open: the same decision again,
// answered as it was the first time, or an error saying who decided it first.

export type ResumeResult = {
  status: "resumed" | "retrying" | "completed" | "approval_recorded" | "waiting";
  message: string;
  approvals?: { count: number; required: number };
};

const notAwaiting = (detail: string, details: Record<string, unknown>) =>
  new AppError("not-awaiting-review", 400, detail, details);

// The same decision on a tool call again, after its review closed: answer as we did then.
export function toolReplayOf(row: ExecutionRow, request: ResumeRequest): ResumeResult | undefined {
  if (openReviewsOf(row).some((r) => r.task_id === request.task_id)) return undefined;
  const task = row.tasks.find((t) => t.task_id === request.task_id);
  const last = request.call_id
    ? task?.tool_reviews?.findLast((r) => r.call_id === request.call_id)
    : task?.tool_reviews?.at(-1);
  const output = task?.reviews?.at(-1);
  if (!last || (output && output.at > last.at)) return undefined;
  if (last.approved !== request.is_approve || last.feedback !== request.human_feedback) {
    if (!request.call_id) return undefined;
    throw errors.conflict(
      `Tool call '${last.call_id}' was already ${last.approved ? "approved" : "refused"} by ${last.reviewer} at ${last.at}.`,
      { reviewed_by: last.reviewer, reviewed_at: last.at },
    );
  }
  return {
    status: "resumed",
    message: `Already applied: the call to '${last.tool}' was ${last.approved ? "approved" : "refused"}.`,
  };
}

// No review of this task is open: someone decided it first (409, saying who and when), or it was
// never waiting (400, as CrewAI's API answers).
export function notOpen(row: ExecutionRow, taskId: string, reviews: OpenReview[]) {
  const last = latestReview(row);
  if (last?.task_id === taskId) {
    return errors.conflict(
      `Task '${last.task_id}' was already ${last.is_approve ? "approved" : "sent back"} by ${last.reviewer} at ${last.at}; the execution is ${row.status}.`,
      { execution_status: row.status, reviewed_by: last.reviewer, reviewed_at: last.at },
    );
  }
  const awaiting = reviews.map((r) => r.task_id);
  return notAwaiting(
    awaiting.length
      ? `Task '${taskId}' is not awaiting review; ${awaiting.map((t) => `'${t}'`).join(", ")} ${awaiting.length > 1 ? "are" : "is"}.`
      : `Execution ${row.id} is not awaiting human input (it is ${row.status}).`,
    {
      execution_status: row.status,
      ...(awaiting.length ? { awaiting_task_id: awaiting[0], awaiting_task_ids: awaiting } : {}),
    },
  );
}

// The last decision that closed a review, with its task.
function latestReview(row: ExecutionRow) {
  return row.tasks
    .flatMap((t) => (t.reviews ?? []).map((r) => ({ ...r, task_id: t.task_id })))
    .sort((a, b) => a.at.localeCompare(b.at))
    .at(-1);
}

// The last closed decision, if `request` is that same decision again: answer as we answered then.
export function replayOf(row: ExecutionRow, request: ResumeRequest): ResumeResult | undefined {
  const latest = latestReview(row);
  if (
    !latest ||
    latest.task_id !== request.task_id ||
    latest.is_approve !== request.is_approve ||
    latest.feedback !== request.human_feedback ||
    (request.edited_output !== undefined &&
      (latest.edited_output ?? latest.output) !== request.edited_output)
  ) {
    return undefined;
  }
  // Only when the reviewed attempt itself still awaits review is an identical request new. (An
  // identical rejection of the retried attempt counts as a repeat: change the feedback text.)
  const open = openReviewsOf(row).find((r) => r.task_id === latest.task_id);
  if (open && open.attempt === latest.attempt) return undefined;
  if (!request.is_approve)
    return {
      status: "retrying",
      message: `Already applied: task '${request.task_id}' was sent back with this feedback.`,
    };
  return row.status === "completed"
    ? {
        status: "completed",
        message: `Already applied: task '${request.task_id}' was approved; the execution is complete.`,
      }
    : { status: "resumed", message: `Already applied: task '${request.task_id}' was approved.` };
}
