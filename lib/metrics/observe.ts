import { reviewKind } from "@/lib/run-model/open-reviews";
import { builtInAndEnvPrices, priceFor } from "@/lib/run-model/pricing";
import type { OpenReview } from "@/lib/run-model/review-types";
import { TERMINAL } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";
import { metrics } from "./registry";

// The engine's hook points call these: cheap, synchronous, and never throwing into a run.

/**
 * One state change of an execution (mutateExecution): runs started and ended, task attempts that
 * ended, reviews that closed, take-overs. Works from the row before and after, so every path that
 * changes a run (worker, stop, review, review clock) is counted the same way.
 */
export function observeChange(
  before: ExecutionRow,
  after: ExecutionRow,
  events: readonly { type: string }[],
) {
  try {
    const m = metrics();
    const crew = after.crew;
    if (events.some((e) => e.type === "execution_started")) m.runsStarted.inc({ crew });
    if (events.some((e) => e.type === "execution_recovered")) m.takeovers.inc();
    if (!TERMINAL.has(before.status) && TERMINAL.has(after.status))
      m.runsFinished.inc({ crew, outcome: after.status });
    const now = Date.now();
    after.tasks.forEach((t, i) => {
      const was = before.tasks[i];
      if (was?.status !== "running" || t.status === "running" || !t.started_at) return;
      // "review": the attempt's output (or its tool calls) went to people.
      const outcome =
        t.status === "pending_human_input"
          ? "review"
          : t.status === "error"
            ? "error"
            : "completed";
      const seconds =
        ((t.finished_at ? Date.parse(t.finished_at) : now) - Date.parse(t.started_at)) / 1000;
      m.taskDuration.observe({ crew, outcome }, Math.max(0, seconds));
    });
    const key = (r: OpenReview) => `${r.task_id}/${r.attempt}/${reviewKind(r)}`;
    const open = new Set((after.open_reviews ?? []).map(key));
    for (const r of before.open_reviews ?? []) {
      if (open.has(key(r))) continue;
      const seconds = (now - Date.parse(r.requested_at)) / 1000;
      m.reviewDuration.observe({ crew, kind: reviewKind(r) }, Math.max(0, seconds));
    }
  } catch (err) {
    console.error("[metrics] could not count a change:", err);
  }
}

/** Tokens one model call used, and their estimated cost (defaults and MODEL_PRICES). */
export function observeTokens(crew: string, model: string, input: number, output: number) {
  const m = metrics();
  if (input) m.tokens.inc({ crew, model, type: "input" }, input);
  if (output) m.tokens.inc({ crew, model, type: "output" }, output);
  const price = priceFor(model, builtInAndEnvPrices());
  if (price) m.cost.inc({ crew, model }, (input * price.input + output * price.output) / 1e6);
}

/** One webhook (or notification) delivery attempt and what became of it. */
export function observeDelivery(kind: string, status: "succeeded" | "failed" | "pending") {
  const outcome =
    status === "succeeded" ? "delivered" : status === "pending" ? "failed" : "gave_up";
  metrics().webhookDeliveries.inc({ kind, outcome });
}
