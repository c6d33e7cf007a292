import type { TaskDef } from "@/lib/crew/schema";
import { toolCallReview } from "@/lib/reviews/tool-calls";
import { lastingWebhooks } from "@/lib/run-model/lasting-webhooks";
import { nextTasks } from "@/lib/run-model/next-tasks";
import { openReview, openReviewsOf, reviewColumns } from "@/lib/run-model/open-reviews";
import type { OpenReview } from "@/lib/run-model/review-types";
import type { ExecutionRow, NewEvent, TaskState } from "@/lib/run-model/types";
import type { Change, NewArtifact } from "@/lib/runs/execution-store";
import type { AgentUsage, ToolApprovalNeeded } from "./run-agent";

// What the end of a task attempt changes in the run: it waits for a tool call's approval, goes on
// or pauses for its reviews, or fails and stops the run.

/**
 * The agent asked for tool calls that need a person's approval: the task waits in review with the
 * calls' names and exact arguments, keeping the conversation to go on from once they are decided.
 */
export function awaitToolApproval(
  r: ExecutionRow,
  task: TaskDef,
  index: number,
  attempt: number,
  agentId: string,
  pause: ToolApprovalNeeded,
): Change {
  const now = new Date();
  const others = openReviewsOf(r).filter((o) => o.task_id !== task.id);
  const review = toolCallReview(task, attempt, pause.calls, now, others);
  const tasks = replaceTask(r.tasks, index, {
    status: "pending_human_input",
    paused: { messages: pause.messages, steps_used: pause.stepsUsed },
  });
  return settle(r, tasks, [...others, review], {
    events: [
      {
        type: "review_requested",
        task_id: task.id,
        attempt,
        data: {
          kind: "tool_call",
          agent: agentId,
          name: task.name,
          output: review.output,
          tool_calls: pause.calls.map(({ input_schema: _, ...call }) => call),
          ...reviewRequested(review),
        },
      },
    ],
  });
}

/**
 * After a task's change: the run goes on while a task runs or can run; otherwise, with reviews
 * open, it pauses for them. The lease goes with the pause, so no worker holds a paused run, and
 * the task, step and crew URLs end there (the seed: they are given again on resume), after this
 * change's events, which tell the reviewer's system what to resume.
 */
function settle(
  r: ExecutionRow,
  tasks: TaskState[],
  reviews: OpenReview[],
  change: Change,
): Change {
  const patch = { ...change.patch, tasks, ...reviewColumns(reviews, tasks) };
  const working = tasks.some((t) => t.status === "running");
  if (!reviews.length || working || nextTasks(r.crew_snapshot.tasks, tasks).length)
    return { ...change, patch };
  return {
    ...change,
    patch: {
      ...patch,
      status: "pending_human_input",
      lease_owner: null,
      lease_expires_at: null,
      // The stream and push endpoints are for the whole run, not renewed by each resume.
      webhooks: lastingWebhooks(r.webhooks),
    },
    webhooksFor: "before",
  };
}

/** Who a review request goes to, by when, and the text it is of, as its event says. */
const reviewRequested = ({
  assignees,
  required_approvals,
  deadline_at,
  output_sha256,
}: OpenReview) => ({
  assignees,
  required_approvals,
  deadline_at,
  output_sha256,
});

export function replaceTask(tasks: TaskState[], index: number, patch: Partial<TaskState>) {
  return tasks.map((t, i) => (i === index ? { ...t, ...patch } : t));
}

/** A checked answer, as the task's completion keeps it. */
type TaskAnswer = {
  output: string;
  usage: AgentUsage;
  outputInfo: Record<string, unknown>;
  artifacts: NewArtifact[];
};

/** One attempt of a task, with the answer that passed its checks. */
type Answered = {
  task: TaskDef;
  index: number;
  attempt: number;
  agentId: string;
  answer: TaskAnswer;
  finishedAt: Date;
};

/**
 * The task's answer passed its checks: the task completes, then hands it to a reviewer
 * (human_input), lets the run go on, or completes the run when it was the last task.
 */
export function completeTask(r: ExecutionRow, done: Answered & { startedAt: Date }): Change {
  const { task, index, attempt, agentId, answer, startedAt, finishedAt } = done;
  const { output, usage, outputInfo, artifacts } = answer;
  const tasks = replaceTask(r.tasks, index, {
    status: "completed",
    output,
    finished_at: finishedAt.toISOString(),
    execution_time: secondsBetween(startedAt, finishedAt),
  });
  // Counted step by step already, as the agent's steps were recorded.
  const token_usage = r.token_usage;
  if (task.human_input) return awaitOutputReview(r, done, tasks);
  const events: NewEvent[] = [
    {
      type: "task_completed",
      task_id: task.id,
      attempt,
      data: { agent: agentId, name: task.name, output, usage, ...outputInfo },
    },
  ];
  if (tasks.some((t) => t.status !== "completed"))
    return settle(r, tasks, openReviewsOf(r), { patch: { token_usage }, events, artifacts });
  return {
    patch: {
      tasks,
      token_usage,
      status: "completed",
      result: output,
      current_task: null,
      finished_at: finishedAt,
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [...events, { type: "execution_completed", data: { result: output, token_usage } }],
    artifacts,
  };
}

/** Seconds from start to finish, to the hundredth. */
export const secondsBetween = (start: Date, end: Date) =>
  Math.round((end.getTime() - start.getTime()) / 10) / 100;

/**
 * The task's answer waits for its review. The run pauses once nothing else runs (async tasks
 * beside it may still be working, and may open reviews of their own).
 */
function awaitOutputReview(
  r: ExecutionRow,
  { task, index, attempt, agentId, answer, finishedAt }: Answered,
  tasks: TaskState[],
): Change {
  const others = openReviewsOf(r).filter((o) => o.task_id !== task.id);
  const review = openReview(task, attempt, answer.output, finishedAt, others);
  return settle(
    r,
    replaceTask(tasks, index, { status: "pending_human_input" }),
    [...others, review],
    {
      patch: { token_usage: r.token_usage },
      events: [
        {
          type: "review_requested",
          task_id: task.id,
          attempt,
          data: {
            agent: agentId,
            name: task.name,
            output: answer.output,
            expected_output: task.expected_output,
            ...reviewRequested(review),
            ...answer.outputInfo,
          },
        },
      ],
      // Kept now: a rejection's next attempt replaces it (same name), an approval keeps it.
      artifacts: answer.artifacts,
    },
  );
}
