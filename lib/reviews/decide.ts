import type { TaskDef } from "@/lib/crew/schema";
import type { Artifact } from "@/lib/outputs/output-file";
import { lastingWebhooks } from "@/lib/run-model/lasting-webhooks";
import { nextTasks } from "@/lib/run-model/next-tasks";
import { openReviewsOf, reviewColumns, sha256, waitToCount } from "@/lib/run-model/open-reviews";
import type { Approval, OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, NewEvent, Review, TaskState, WebhookUrls } from "@/lib/run-model/types";
import { acceptEdit } from "@/lib/runs/edited-output";
import type { Change } from "@/lib/runs/execution-store";

/** Who decides: a person, an organization token, or the review clock. */
export type Decider = { name: string; user_id: string | null };
export type Effect = "approval_recorded" | "approved" | "sent_back";

export type Decision = {
  feedback: string;
  response?: Record<string, unknown>;
  /** The text approved instead of the one under review (already different from it). */
  edited_output?: string;
  /** Webhook URLs the decision subscribes, when it resumes a paused run (the seed's /resume). */
  webhooks?: WebhookUrls;
  /** A flow's human feedback: the outcome chosen (one of the method's `emit`). */
  outcome?: string;
};

/**
 * An approval. Under a quorum it counts toward `required_approvals` until enough distinct people
 * approved (`force`: the review clock approves alone); an approver's edit becomes the text under
 * review, and approvals of the earlier text no longer count (they approved something else).
 */
export function approve(
  row: ExecutionRow,
  review: OpenReview,
  who: Decider,
  decision: Decision,
  now: Date,
  { force = false } = {},
): { change: Change; effect: Effect; approvals: number } {
  const { index, def } = taskOf(row, review.task_id);
  const edit =
    decision.edited_output === undefined
      ? undefined
      : acceptEdit({
          task: def,
          original: review.agent_output,
          edited: decision.edited_output,
          inputs: row.inputs,
        });
  const updated = withApproval(review, approvalOf(who, decision, now, !!edit), edit?.output);
  const count = updated.approvals.length;
  const enough = force || count >= review.required_approvals;
  const submitted = submittedEvent(review, who, decision, {
    decision: "approve",
    effect: enough ? "approved" : "approval_recorded",
    approvals: { count, required: review.required_approvals },
    ...(edit ? { edited: true, edited_output: edit.output, diff: edit.diff } : {}),
  });
  const others = openReviewsOf(row).filter((r) => r.task_id !== review.task_id);
  if (!enough) {
    const patch = { ...reviewColumns([...others, updated], row.tasks) };
    return {
      effect: "approval_recorded",
      approvals: count,
      change: { patch, events: [submitted] },
    };
  }
  const output = updated.output;
  const changed = output !== review.agent_output;
  const diff = () => edit?.diff ?? acceptEdit(editArgs(row, def, review)).diff;
  const record = approvedReview(updated, who, decision, now, changed ? diff() : undefined);
  const tasks = row.tasks.map(
    (t, i): TaskState =>
      i === index
        ? {
            ...t,
            status: "completed",
            output,
            reviews: [...(t.reviews ?? []), record],
            finished_at: now.toISOString(),
          }
        : t,
  );
  const completed: NewEvent = {
    type: "task_completed",
    task_id: review.task_id,
    attempt: review.attempt,
    data: {
      agent: row.tasks[index]?.agent,
      name: def.name,
      output,
      reviewed: true,
      ...(changed ? { edited: true } : {}),
    },
  };
  // The file the task keeps is the approved text (the agent's was kept when it answered).
  const artifacts = changed
    ? (edit?.artifacts ?? acceptEdit(editArgs(row, def, updated)).artifacts)
    : [];
  const events = [submitted, completed];
  const change = afterDecision(row, tasks, others, review, now, events, decision, artifacts);
  return { effect: "approved", approvals: count, change };
}

/** One person's approval as the review keeps it. */
export function approvalOf(who: Decider, decision: Decision, now: Date, edited: boolean): Approval {
  return {
    reviewer: who.name,
    user_id: who.user_id,
    at: now.toISOString(),
    feedback: decision.feedback,
    ...(decision.response ? { response: decision.response } : {}),
    ...(edited ? { edited: true } : {}),
  };
}

/**
 * The review with one more approval. An edit becomes the text under review, and approvals of the
 * earlier text no longer count (they approved something else).
 */
export function withApproval(
  review: OpenReview,
  approval: Approval,
  editedOutput: string | undefined,
): OpenReview {
  return editedOutput !== undefined
    ? {
        ...review,
        output: editedOutput,
        output_sha256: sha256(editedOutput),
        approvals: [approval],
      }
    : { ...review, approvals: [...review.approvals, approval] };
}

/**
 * The approval as the task's review trail keeps it: the agent's output, and the approved text with
 * its diff when they differ (`diff`), and everyone who approved under a quorum.
 */
export function approvedReview(
  approved: OpenReview,
  who: Decider,
  decision: Decision,
  now: Date,
  diff: string | undefined,
): Review {
  return {
    attempt: approved.attempt,
    is_approve: true,
    feedback: decision.feedback,
    output: approved.agent_output,
    ...(diff !== undefined ? { edited_output: approved.output, diff } : {}),
    ...(decision.response ? { response: decision.response } : {}),
    ...(decision.outcome !== undefined ? { outcome: decision.outcome } : {}),
    ...(approved.approvals.length > 1
      ? { approvers: approved.approvals.map((a) => a.reviewer) }
      : {}),
    reviewer: who.name,
    at: now.toISOString(),
  };
}

/** A send-back: the task runs again with the feedback, whatever approvals it had. */
export function sendBack(
  row: ExecutionRow,
  review: OpenReview,
  who: Decider,
  decision: Decision,
  now: Date,
): Change {
  const { index } = taskOf(row, review.task_id);
  const record: Review = {
    attempt: review.attempt,
    is_approve: false,
    feedback: decision.feedback,
    output: review.agent_output,
    ...(decision.response ? { response: decision.response } : {}),
    ...(decision.outcome !== undefined ? { outcome: decision.outcome } : {}),
    reviewer: who.name,
    at: now.toISOString(),
  };
  const tasks = row.tasks.map(
    (t, i): TaskState =>
      i === index ? { ...t, status: "pending", reviews: [...(t.reviews ?? []), record] } : t,
  );
  const submitted = submittedEvent(review, who, decision, {
    decision: "reject",
    effect: "sent_back",
    approvals: { count: review.approvals.length, required: review.required_approvals },
  });
  const others = openReviewsOf(row).filter((r) => r.task_id !== review.task_id);
  return afterDecision(row, tasks, others, review, now, [submitted], decision, []);
}

/**
 * Where the run stands once a review closed: complete when every task is, running when a task can
 * run (a worker picks it up) or one runs already, still awaiting review otherwise.
 */
export function afterDecision(
  row: ExecutionRow,
  tasks: TaskState[],
  reviews: OpenReview[],
  closed: OpenReview,
  now: Date,
  events: NewEvent[],
  decision: Decision,
  artifacts: Artifact[],
): Change {
  const base = {
    ...reviewColumns(reviews, tasks),
    tasks,
    review_wait_seconds: row.review_wait_seconds + waitToCount(closed, reviews, now),
    // A paused run takes the URLs given with the decision that resumes it (the seed's /resume).
    ...(row.status === "pending_human_input" && decision.webhooks
      ? {
          webhooks: {
            ...decision.webhooks,
            ...lastingWebhooks(row.webhooks ?? {}),
          },
        }
      : {}),
  };
  // A flow's methods are its tasks, but which run next is the flow's to say (lib/flows): with
  // its review closed it goes back to the worker, never completes here.
  if (row.crew_snapshot.flow) {
    const waiting = reviews.length > 0;
    const status = waiting ? "pending_human_input" : "running";
    return {
      patch: { ...base, ...(status !== row.status ? { status } : {}) },
      events,
      artifacts,
    };
  }
  if (tasks.every((t) => t.status === "completed")) {
    const result = tasks.at(-1)?.output ?? "";
    return {
      patch: {
        ...base,
        status: "completed",
        result,
        current_task: null,
        finished_at: now,
        lease_owner: null,
        lease_expires_at: null,
      },
      events: [
        ...events,
        { type: "execution_completed", data: { result, token_usage: row.token_usage } },
      ],
      artifacts,
    };
  }
  const working = tasks.some((t) => t.status === "running");
  const runnable = nextTasks(row.crew_snapshot.tasks, tasks).length > 0;
  const status = working || runnable ? "running" : "pending_human_input";
  return {
    patch: {
      ...base,
      ...(status !== row.status ? { status } : {}),
      ...(!working ? { current_task: runnable ? null : row.current_task } : {}),
    },
    events,
    artifacts,
  };
}

function submittedEvent(
  review: OpenReview,
  who: Decider,
  decision: Decision,
  extra: Record<string, unknown>,
): NewEvent {
  return {
    type: "review_submitted",
    task_id: review.task_id,
    attempt: review.attempt,
    data: {
      feedback: decision.feedback,
      reviewer: who.name,
      output_sha256: review.output_sha256,
      ...(decision.response ? { response: decision.response } : {}),
      ...(decision.outcome !== undefined ? { outcome: decision.outcome } : {}),
      ...extra,
    },
  };
}

function taskOf(row: ExecutionRow, taskId: string): { index: number; def: TaskDef } {
  const index = row.tasks.findIndex((t) => t.task_id === taskId);
  const def = row.crew_snapshot.tasks[index];
  if (index < 0 || !def) throw new Error(`task ${taskId} is not part of execution ${row.id}`);
  return { index, def };
}

const editArgs = (row: ExecutionRow, def: TaskDef, review: OpenReview) => ({
  task: def,
  original: review.agent_output,
  edited: review.output,
  inputs: row.inputs,
});
