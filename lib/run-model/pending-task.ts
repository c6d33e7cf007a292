import type { TaskState } from "./types";

/** A task as a run starts it: pending, never tried, with nothing recorded yet. */
export function pendingTask(
  task: Pick<TaskState, "task_id" | "name" | "agent" | "human_input">,
): TaskState {
  return {
    ...task,
    status: "pending",
    attempts: 0,
    output: null,
    started_at: null,
    finished_at: null,
    execution_time: null,
  };
}
