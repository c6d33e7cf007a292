// The execution state machine, in one place. Every write to `executions.status` goes through
// `assertTransition`, so an illegal move (completing a cancelled run, …) fails loudly.
import type { CrewAIState, ExecutionStatus } from "@/lib/contract/states";

// The lists are the API's contract (lib/contract/states.ts); the machine over them is here.
export {
  type CrewAIState,
  EXECUTION_STATUSES,
  type ExecutionStatus,
  TASK_STATUSES,
  type TaskStatus,
} from "@/lib/contract/states";

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

/**
 * CrewAI's `state`, as the clients written for CrewAI parse it; our own `status` keeps the precise
 * word. Each value is one that every one of them accepts and reads the same way:
 * - Semantic Kernel .NET maps PENDING, STARTED, RUNNING, SUCCESS and FAILED, and throws on anything
 *   else; it stops polling at SUCCESS or FAILED and reads `result` as the error on FAILED.
 * - Semantic Kernel Python accepts those and FAILURE and "NOT FOUND"; it stops at SUCCESS, FAILED,
 *   FAILURE or NOT FOUND.
 * - crewai-tools' InvokeCrewAIAutomationTool stops only at "success" or "failed" (lower-cased).
 * So a failed or stopped run is FAILED (FAILURE and REVOKED left two of them polling until their
 * time-out or throwing), and a run awaiting review is RUNNING: not finished, and not queued.
 */
export const CREWAI_STATE = {
  queued: "PENDING",
  running: "RUNNING",
  pending_human_input: "RUNNING",
  completed: "SUCCESS",
  error: "FAILED",
  cancelled: "FAILED",
} as const satisfies Record<ExecutionStatus, CrewAIState>;
