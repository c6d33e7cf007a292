import type { ExecutionEvent } from "@/lib/api/schemas";
import type { RunStatus, TokenUsage } from "./run-extras";
import type { Trace } from "./trace-model";

// The header's figures: from /status when the server reports them, otherwise derived from the
// event log (tokens per task, models per step, review waits from the trace) — never invented.
export type RunMetrics = {
  tokens: TokenUsage | null;
  models: string[];
  unpriced: string[];
  usd: number | null | undefined;
  totalSeconds: number | null;
  workingSeconds: number | null;
  reviewWaitSeconds: number;
};

export function runMetrics(status: RunStatus, events: ExecutionEvent[], trace: Trace, now: number) {
  let tokens: TokenUsage | null =
    status.token_usage ??
    ((events.findLast((e) => e.type === "execution_completed")?.data.token_usage as
      | TokenUsage
      | undefined) ||
      null);
  if (!tokens) {
    let input = 0;
    let output = 0;
    let seen = false;
    for (const e of events) {
      const u = e.type === "task_completed" ? (e.data.usage as TokenUsage | undefined) : undefined;
      if (u && typeof u.input_tokens === "number") {
        seen = true;
        input += u.input_tokens;
        output += u.output_tokens;
      }
    }
    tokens = seen ? { input_tokens: input, output_tokens: output } : null;
  }
  const models = status.cost?.models ?? [
    ...new Set(events.flatMap((e) => (typeof e.data.model === "string" ? [e.data.model] : []))),
  ];

  let reviewWait = status.timing?.review_wait_seconds;
  if (reviewWait === undefined) {
    let ms = 0;
    for (const t of trace.tasks)
      for (const a of t.attempts)
        for (const s of a.steps) if (s.kind === "review") ms += (s.end ?? now) - s.start;
    reviewWait = ms / 1000;
  }
  // While the run goes on, its duration grows with the clock (the cached status lags).
  const total =
    trace.end === null
      ? (now - Date.parse(status.created_at)) / 1000
      : (status.execution_time ?? (trace.end - trace.start) / 1000);
  const working =
    status.timing?.working_seconds ?? (total !== null ? Math.max(0, total - reviewWait) : null);
  return {
    tokens,
    models,
    unpriced: status.cost?.unpriced_models ?? [],
    usd: status.cost ? status.cost.usd : undefined,
    totalSeconds: total,
    workingSeconds: working,
    reviewWaitSeconds: reviewWait,
  } satisfies RunMetrics;
}
