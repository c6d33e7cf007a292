import type { ResumeRequest } from "@/lib/api/schemas";
import { type Principal, principalName } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { assertWebhookUrlsAllowed } from "@/lib/webhooks/check-urls";
import { acceptEdit } from "./edited-output";
import { mutateExecution } from "./execution-store";
import { getExecutionOrThrow } from "./get-execution";
import type { ExecutionRow, Review } from "./types";

const notAwaiting = (detail: string, details: Record<string, unknown>) =>
  new AppError("not-awaiting-review", 400, detail, details);

export type ResumeResult = { status: "resumed" | "retrying" | "completed"; message: string };

/**
 * Applies a reviewer's decision to the task awaiting review: approve → the run goes on (or
 * completes on the last task); reject → the task runs again with the feedback. A repeated
 * identical request (double click, client retry) is answered as the first was, not applied again.
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
  if (request.edited_output !== undefined && !request.is_approve)
    throw errors.badRequest(
      "edited_output comes with an approval (is_approve: true); to send a task back, say what to change in human_feedback.",
      [{ path: "edited_output", message: "only with is_approve: true" }],
    );
  await getExecutionOrThrow({ db, crew, id: request.execution_id, principal });
  await assertWebhookUrlsAllowed(request);
  let result: ResumeResult | undefined;
  await db.tx(async (q) => {
    await q.query("SELECT pg_notify('crewdeck_work', $1)", [request.execution_id]);
    return mutateExecution(q, { id: request.execution_id }, (row) => {
      const replay = replayOf(row, request);
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
      const pending = row.pending_human_input as { task_id: string; attempt: number } | null;
      const waiting = row.status === "pending_human_input" && pending;
      if (!waiting || pending.task_id !== request.task_id) {
        // Someone decided this review first (two reviewers racing): 409, saying who and when.
        const last = latestReview(row);
        if (last?.task_id === request.task_id) {
          throw errors.conflict(
            `Task '${last.task_id}' was already ${last.is_approve ? "approved" : "sent back"} by ${last.reviewer} at ${last.at}; the execution is ${row.status}.`,
            { execution_status: row.status, reviewed_by: last.reviewer, reviewed_at: last.at },
          );
        }
        // Nothing of this task awaits review: 400, as CrewAI's API answers.
        throw notAwaiting(
          waiting
            ? `Task '${request.task_id}' is not awaiting review; '${pending.task_id}' is.`
            : `Execution ${row.id} is not awaiting human input (it is ${row.status}).`,
          {
            execution_status: row.status,
            ...(waiting ? { awaiting_task_id: pending.task_id } : {}),
          },
        );
      }
      const task = row.tasks[index];
      const def = row.crew_snapshot.tasks[index];
      if (!task || !def)
        throw errors.notFound(`Task '${request.task_id}' is not part of this execution.`);
      const rejections = (task.reviews ?? []).filter((r) => !r.is_approve).length;
      if (
        !request.is_approve &&
        def.max_review_rounds !== undefined &&
        rejections >= def.max_review_rounds
      ) {
        throw errors.conflict(
          `Task '${task.task_id}' has used all ${def.max_review_rounds} review rounds; approve it or stop the execution.`,
          { max_review_rounds: def.max_review_rounds },
        );
      }
      const now = new Date();
      const original = task.output ?? "";
      // Approved with edits: the edit becomes the task's output, checked as the agent's was.
      const edit =
        request.edited_output !== undefined && request.edited_output !== original
          ? acceptEdit({ task: def, original, edited: request.edited_output, inputs: row.inputs })
          : undefined;
      const output = edit?.output ?? task.output;
      const review: Review = {
        attempt: pending.attempt,
        is_approve: request.is_approve,
        feedback: request.human_feedback,
        output: original,
        ...(edit ? { edited_output: edit.output, diff: edit.diff } : {}),
        reviewer: principalName(principal),
        at: now.toISOString(),
      };
      const reviews = [...(task.reviews ?? []), review];
      const last = index === row.tasks.length - 1;
      const webhooks = {
        task: request.taskWebhookUrl,
        step: request.stepWebhookUrl,
        crew: request.crewWebhookUrl,
        // The kickoff's `webhooks` stream carries on (only the three URLs must be given again).
        ...(row.webhooks?.stream ? { stream: row.webhooks.stream } : {}),
      };
      const reviewEvent = {
        type: "review_submitted",
        task_id: task.task_id,
        attempt: pending.attempt,
        data: {
          decision: request.is_approve ? "approve" : "reject",
          feedback: request.human_feedback,
          reviewer: review.reviewer,
          ...(edit ? { edited: true, edited_output: edit.output, diff: edit.diff } : {}),
        },
      };
      const tasks = row.tasks.map((t, i) =>
        i !== index
          ? t
          : request.is_approve
            ? {
                ...t,
                status: "completed" as const,
                output,
                reviews,
                finished_at: now.toISOString(),
              }
            : { ...t, status: "pending" as const, reviews },
      );
      const base = {
        tasks,
        pending_human_input: null,
        webhooks,
        review_wait_seconds: row.review_wait_seconds + reviewWait(row.pending_human_input, now),
      };
      // An approved task is complete now, not when its output was produced.
      const completedEvent = {
        type: "task_completed",
        task_id: task.task_id,
        attempt: pending.attempt,
        data: {
          agent: task.agent,
          name: task.name,
          output,
          reviewed: true,
          ...(edit ? { edited: true } : {}),
        },
      };
      if (!request.is_approve) {
        result = {
          status: "retrying",
          message: `Task '${task.task_id}' will run again (attempt ${pending.attempt + 1}) with your feedback.`,
        };
        return {
          patch: { ...base, status: "running", current_task: task.task_id },
          events: [reviewEvent],
        };
      }
      if (last) {
        result = {
          status: "completed",
          message: `Task '${task.task_id}' approved; the execution is complete.`,
        };
        return {
          patch: {
            ...base,
            status: "completed",
            result: output,
            current_task: null,
            finished_at: now,
          },
          events: [
            reviewEvent,
            completedEvent,
            {
              type: "execution_completed",
              data: { result: output, token_usage: row.token_usage },
            },
          ],
          artifacts: edit?.artifacts,
        };
      }
      result = {
        status: "resumed",
        message: `Task '${task.task_id}' approved; the execution continues.`,
      };
      return {
        patch: { ...base, status: "running", current_task: null },
        events: [reviewEvent, completedEvent],
        artifacts: edit?.artifacts,
      };
    });
  });
  return result as ResumeResult;
}

// The last review, if `request` is that same decision again: answer as we answered then.
function latestReview(row: ExecutionRow) {
  return row.tasks
    .flatMap((t) => (t.reviews ?? []).map((r) => ({ ...r, task_id: t.task_id })))
    .sort((a, b) => a.at.localeCompare(b.at))
    .at(-1);
}

function replayOf(row: ExecutionRow, request: ResumeRequest): ResumeResult | undefined {
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
  const pending = row.pending_human_input as { task_id: string; attempt: number } | null;
  if (
    row.status === "pending_human_input" &&
    pending?.task_id === latest.task_id &&
    pending.attempt === latest.attempt
  ) {
    return undefined;
  }
  if (!request.is_approve)
    return {
      status: "retrying",
      message: `Already applied: task '${request.task_id}' was sent back with this feedback.`,
    };
  const last = row.tasks.at(-1)?.task_id === request.task_id;
  return last
    ? {
        status: "completed",
        message: `Already applied: task '${request.task_id}' was approved; the execution is complete.`,
      }
    : { status: "resumed", message: `Already applied: task '${request.task_id}' was approved.` };
}

/** Seconds from the review request to `now` (0 when the request carries no time). */
export function reviewWait(pending: Record<string, unknown> | null, now: Date): number {
  const at = typeof pending?.requested_at === "string" ? Date.parse(pending.requested_at) : NaN;
  return Number.isNaN(at) ? 0 : Math.max(0, (now.getTime() - at) / 1000);
}
