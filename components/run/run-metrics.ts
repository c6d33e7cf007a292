import type { ExecutionEvent } from "@/lib/contract/status";
import type { RunStatus, TokenUsage } from "./run-types";
import type { Trace } from "./trace-types";

// The header's figures, from /status; while the run goes on the clocks run here (a cached
// status's figures lag behind), from the trace.
export type RunMetrics = {
  tokens: TokenUsage;
  models: string[];
  unpriced: string[];
  usd: number | null;
  totalSeconds: number | null;
  workingSeconds: number | null;
  reviewWaitSeconds: number;
};

export function runMetrics(
  status: RunStatus,
  events: ExecutionEvent[],
  trace: Trace,
  now: number,
): RunMetrics {
  // Models seen in steps that arrived after the last status fetch count too.
  const models = [
    ...new Set([
      ...status.cost.models,
      ...events.flatMap((e) => (typeof e.data.model === "string" ? [e.data.model] : [])),
    ]),
  ];
  let total: number | null;
  let reviewWait: number;
  let working: number | null;
  if (trace.end !== null) {
    total = status.execution_time ?? (trace.end - trace.start) / 1000;
    reviewWait = status.timing.review_wait_seconds;
    working = status.timing.working_seconds ?? Math.max(0, total - reviewWait);
  } else {
    // Reviews open side by side (parallel tasks) wait at the same time: count the time once.
    const spans = trace.tasks
      .flatMap((t) => t.attempts.flatMap((a) => a.steps))
      .filter((s) => s.kind === "review")
      .map((s) => [s.start, s.end ?? now] as const)
      .sort((a, b) => a[0] - b[0]);
    let waitMs = 0;
    let until = Number.NEGATIVE_INFINITY;
    for (const [start, end] of spans) {
      waitMs += Math.max(0, end - Math.max(start, until));
      until = Math.max(until, end);
    }
    total = (now - Date.parse(status.created_at)) / 1000;
    reviewWait = waitMs / 1000;
    working = Math.max(0, total - reviewWait);
  }
  return {
    tokens: status.token_usage,
    models,
    unpriced: status.cost.unpriced_models,
    usd: status.cost.usd,
    totalSeconds: total,
    workingSeconds: working,
    reviewWaitSeconds: reviewWait,
  };
}
