import { APICallError, RetryError } from "ai";
import type { TaskDef } from "@/lib/crew/schema";
import { errorMessage } from "@/lib/errors";
import { ModelConfigError } from "@/lib/llm/choose-model";
import type { DecidedCall, PausedConversation } from "@/lib/run-model/review-types";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { PlaceholderBudgetError } from "@/lib/util/placeholders";
import { replaceTask } from "./task-changes";

// Where an attempt at a task starts, and what its failure says: decisions on the row alone.

export type Resume = { paused: PausedConversation; decided: DecidedCall[] };

/**
 * Which attempt this is: tool calls decided since the agent stopped for them go on in the same
 * attempt, from the time it started; anything else is a new attempt, starting now.
 */
export function attemptOf(row: ExecutionRow, index: number, now: Date) {
  const state = row.tasks[index];
  const paused = state?.paused;
  const resume: Resume | undefined = paused?.decided?.length
    ? { paused, decided: paused.decided }
    : undefined;
  const attempt = (state?.attempts ?? 0) + (resume ? 0 : 1);
  const startedAt = resume ? new Date(state?.started_at ?? now.getTime()) : now;
  return { resume, attempt, startedAt };
}

/** The task marked running with its attempt, and the event saying so. */
export function taskStarted(
  r: ExecutionRow,
  {
    task,
    index,
    agentId,
    attempt,
    startedAt,
    resume,
  }: {
    task: TaskDef;
    index: number;
    agentId: string;
    attempt: number;
    startedAt: Date;
    resume: Resume | undefined;
  },
): Change {
  const recovered = r.tasks[index]?.status === "running";
  return {
    patch: {
      current_task: task.id,
      tasks: replaceTask(r.tasks, index, {
        status: "running",
        attempts: attempt,
        started_at: startedAt.toISOString(),
        finished_at: null,
        execution_time: null,
        error: null,
        ...(resume ? {} : { paused: undefined }),
      }),
    },
    events: [
      {
        type: "task_started",
        task_id: task.id,
        attempt,
        data: {
          agent: agentId,
          name: task.name,
          recovered,
          ...(resume ? { continued: true, decided_calls: resume.decided.length } : {}),
        },
      },
    ],
  };
}

/** The outputs of the tasks completed so far, by task id: the context a task may name. */
export function completedOutputs(row: ExecutionRow): Map<string, string> {
  return new Map(
    row.tasks.flatMap((t) =>
      t.status === "completed" && t.output !== null ? [[t.task_id, t.output] as const] : [],
    ),
  );
}

/** Why an attempt that threw failed its task, in the words the run shows. */
export function attemptFailure(
  err: unknown,
  {
    taskId,
    timedOut,
    timeoutMs,
    modelId,
  }: { taskId: string; timedOut: boolean; timeoutMs: number; modelId: string },
): string {
  if (timedOut) return `Task '${taskId}' timed out after ${timeoutMs / 1000} s.`;
  // A coworker's role or goal, filled in for delegation.
  if (err instanceof PlaceholderBudgetError) return `${err.message}.`;
  return describeModelError(err, modelId);
}

function describeModelError(err: unknown, modelId: string): string {
  // Set-up, not a failure of the model: say what to set, as the warning at load did.
  if (err instanceof ModelConfigError)
    return `${err.message.replace(/\.$/, "")}: set it in Crewdeck's environment and restart.`;
  const last = err instanceof RetryError ? err.lastError : err;
  const tries = err instanceof RetryError ? ` after ${err.errors.length} attempts` : "";
  if (APICallError.isInstance(last)) {
    const status = last.statusCode ? `HTTP ${last.statusCode}` : "no response";
    return `The model '${modelId}' failed${tries}: ${status} — ${last.message}`;
  }
  return `The model '${modelId}' failed${tries}: ${errorMessage(last)}`;
}
