import { reviewColumns } from "@/lib/run-model/open-reviews";
import type { ExecutionRow } from "@/lib/run-model/types";
import type { Change } from "./execution-store";

/**
 * The change that ends a run in error: the task at fault (if any) and those running beside it
 * fail, open reviews close with the run, and the worker lets go.
 */
export function failure(
  r: ExecutionRow,
  taskId: string | null,
  message: string,
  attempt?: number,
): Change {
  const now = new Date();
  // Tasks running beside it (async_execution) stop with it, saying why.
  const stoppedWith = taskId ? `Stopped: task '${taskId}' failed.` : message;
  const siblings = r.tasks.filter((t) => t.status === "running" && t.task_id !== taskId);
  const tasks = r.tasks.map((t) =>
    t.task_id === taskId || t.status === "running" || t.status === "pending_human_input"
      ? {
          ...t,
          status: "error" as const,
          error: t.task_id === taskId ? message : stoppedWith,
          finished_at: now.toISOString(),
        }
      : t,
  );
  return {
    patch: {
      status: "error",
      error: message,
      tasks,
      // Reviews open beside the failed task close with the run.
      ...reviewColumns([], tasks),
      current_task: null,
      finished_at: now,
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [
      ...(taskId
        ? [
            {
              type: "task_failed",
              task_id: taskId,
              attempt: attempt ?? null,
              data: { error: message },
            },
          ]
        : []),
      ...(taskId
        ? siblings.map((t) => ({
            type: "task_failed",
            task_id: t.task_id,
            attempt: t.attempts,
            data: { error: stoppedWith },
          }))
        : []),
      { type: "execution_failed", data: { error: message } },
    ],
  };
}
