import type { ExecutionEvent } from "@/lib/contract/status";
import type { Trace } from "./trace-types";

// What the run page decides from the run's status and trace before drawing it.

/** Tasks with two outputs to compare: sent back and done again, or approved with an edit. */
export function comparedTasks(trace: Trace) {
  return trace.tasks.filter(
    (t) => t.attempts.filter((a) => a.output).length > 1 || t.attempts.some((a) => a.edit),
  );
}

/** Review events seen so far: each is a ledger entry, so a new one means a new entry to show. */
export const reviewEventCount = (events: ExecutionEvent[]) =>
  events.filter((e) => e.type.startsWith("review_")).length;

/**
 * The nested run an active flow waits on: the flow's own log hears nothing while that run works
 * or waits for review, so its /status (which shows the nested run's reviews) is read instead.
 */
export function flowWaitingOn(
  status: { flow?: { current: { nested_run: string | null } | null } | null } | undefined,
  active: boolean,
): string | null {
  return active ? (status?.flow?.current?.nested_run ?? null) : null;
}

/** A run can be forked from a step by who may start runs, unless it ran on a deployment (@…). */
export function forkFrom(
  canStart: boolean,
  crew: string,
  runId: string,
  status: { flow?: { path: { method: string }[] } | null },
) {
  return canStart && !crew.startsWith("@")
    ? { crew, runId, path: status.flow?.path.map((p) => p.method) }
    : undefined;
}
