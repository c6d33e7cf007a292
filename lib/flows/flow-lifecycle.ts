import { FlowExpressionError } from "@/lib/crew/flow-eval";
import type { FlowPlan } from "@/lib/crew/flow-plan";
import { errorMessage } from "@/lib/errors";
import { FlowLoopError, initialProgress } from "@/lib/run-model/flow-progress";
import type { ExecutionRow, TokenUsage } from "@/lib/run-model/types";
import type { Change } from "@/lib/runs/execution-store";
import { failure } from "@/lib/runs/run-failure";
import { FlowStepError, outputText } from "./flow-actions";
import { plus, progressOf } from "./flow-changes";

// A flow run's start (or a worker taking it over), its completion and its failure.

/** The worker starts the flow, or goes on with it: with its progress from the start if new. */
export function flowStarted(r: ExecutionRow, plan: FlowPlan, workerId: string): Change {
  return {
    patch: {
      ...(r.status === "queued" ? { status: "running", started_at: new Date() } : {}),
      ...(r.flow ? {} : { flow: initialProgress(plan, {}) }),
    },
    events: [
      {
        type: r.status === "queued" ? "execution_started" : "execution_resumed",
        data: { worker: workerId },
      },
    ],
  };
}

/** Nothing left to run: the flow completes with its last method's output as the result. */
export function flowCompleted(r: ExecutionRow): Change {
  const result = outputText(progressOf(r).last_output);
  return {
    patch: {
      status: "completed",
      result,
      current_task: null,
      finished_at: new Date(),
      lease_owner: null,
      lease_expires_at: null,
    },
    events: [{ type: "execution_completed", data: { result, token_usage: r.token_usage } }],
  };
}

/** Errors of the flow's own making, said as they are; anything else is the engine's bug. */
export const isFlowError = (err: unknown) =>
  err instanceof FlowStepError ||
  err instanceof FlowExpressionError ||
  err instanceof FlowLoopError;

/** What a failed flow says: the flow's own error, with the method it happened in. */
export function flowFailureMessage(err: unknown, current: string | null): string {
  const message = isFlowError(err)
    ? errorMessage(err)
    : "The flow failed unexpectedly; see the server log.";
  // A step's own errors name their method already; others are said with it.
  return current && !message.startsWith(`method '${current}'`)
    ? `method '${current}': ${message}`
    : message;
}

/** The flow fails, counting what its nested runs used when that could be read. */
export function flowFailed(
  r: ExecutionRow,
  current: string | null,
  message: string,
  nested: TokenUsage | undefined,
): Change {
  const failed = failure(r, current, message);
  if (!nested) return failed;
  const token_usage = plus(r.flow?.own_usage, nested);
  return { ...failed, patch: { ...failed.patch, token_usage } };
}
