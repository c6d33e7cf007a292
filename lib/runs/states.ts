// The execution state machine, in one place. Every write to `executions.status` goes through
// `assertTransition`, so an illegal move (completing a cancelled run, …) fails loudly.
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

export const TERMINAL: ReadonlySet<ExecutionStatus> = new Set(["completed", "error", "cancelled"]);

/** Queued, running or awaiting review: a run that can still be stopped. */
export const isActive = (status: ExecutionStatus) => !TERMINAL.has(status);

const NEXT: Record<ExecutionStatus, readonly ExecutionStatus[]> = {
  queued: ["running", "cancelled", "error"],
  running: ["running", "pending_human_input", "completed", "error", "cancelled"],
  pending_human_input: ["running", "completed", "cancelled", "error"],
  completed: [],
  error: [],
  cancelled: [],
};

export class IllegalTransitionError extends Error {}

export function assertTransition(from: ExecutionStatus, to: ExecutionStatus) {
  if (!NEXT[from].includes(to))
    throw new IllegalTransitionError(`execution cannot go from ${from} to ${to}`);
}

// CrewAI clients read `state`; ours read `status`. Both are served.
export const CREWAI_STATE: Record<ExecutionStatus, string> = {
  queued: "PENDING",
  running: "RUNNING",
  pending_human_input: "PENDING_HUMAN_INPUT",
  completed: "SUCCESS",
  error: "FAILURE",
  cancelled: "REVOKED",
};
