// The words a run and its tasks are in, as the API answers them. The state machine over them
// lives in lib/run-model/states.ts; the lists sit here so the wire contract needs nothing above it.
export const EXECUTION_STATUSES = [
  "queued",
  "running",
  "pending_human_input",
  "completed",
  "error",
  "cancelled",
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export const TASK_STATUSES = [
  "pending",
  "running",
  "pending_human_input",
  "completed",
  "error",
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** CrewAI's `state` values (lib/run-model/states.ts maps each status to one). */
export const CREWAI_STATES = ["PENDING", "RUNNING", "SUCCESS", "FAILED"] as const;
export type CrewAIState = (typeof CREWAI_STATES)[number];
