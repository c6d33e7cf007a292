import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { processGlobal } from "@/lib/util/process-global";

// Next.js loads the route handlers and instrumentation.ts (where the worker starts) as separate
// bundles, each with its own copy of this module: a process that is both web and worker would
// count its runs in one registry and serve the other. One set of metrics per process, on
// globalThis, whichever bundle creates it first.
const SLOT = Symbol.for("crewdeck.metrics");

const DURATION_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const REVIEW_BUCKETS = [1, 10, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 7 * 86400];

function create() {
  const registry = new Registry();
  const on = { registers: [registry] };
  return {
    registry,
    runsStarted: new Counter({
      name: "crewdeck_runs_started_total",
      help: "Executions that started running, by crew.",
      labelNames: ["crew"] as const,
      ...on,
    }),
    runsFinished: new Counter({
      name: "crewdeck_runs_finished_total",
      help: "Executions that ended, by crew and outcome (completed, error, cancelled).",
      labelNames: ["crew", "outcome"] as const,
      ...on,
    }),
    taskDuration: new Histogram({
      name: "crewdeck_task_duration_seconds",
      help: "Time one task attempt took, from its start to its output (outcome completed, or review when it went to people) or failure.",
      labelNames: ["crew", "outcome"] as const,
      buckets: DURATION_BUCKETS,
      ...on,
    }),
    reviewDuration: new Histogram({
      name: "crewdeck_review_duration_seconds",
      help: "Time a review stayed open, from the request to the decision (or the run's end).",
      labelNames: ["crew", "kind"] as const,
      buckets: REVIEW_BUCKETS,
      ...on,
    }),
    queueDepth: new Gauge({
      name: "crewdeck_queue_depth",
      help: "Executions queued and not yet claimed by a worker (read from the database at scrape).",
      ...on,
    }),
    oldestQueued: new Gauge({
      name: "crewdeck_queue_oldest_age_seconds",
      help: "Age of the oldest queued execution; 0 when none waits (read at scrape).",
      ...on,
    }),
    executions: new Gauge({
      name: "crewdeck_executions",
      help: "Executions not yet ended, by status (read from the database at scrape).",
      labelNames: ["status"] as const,
      ...on,
    }),
    webhookDeliveries: new Counter({
      name: "crewdeck_webhook_deliveries_total",
      help: "Webhook and notification delivery attempts, by kind and outcome (delivered, failed: retried later, gave_up).",
      labelNames: ["kind", "outcome"] as const,
      ...on,
    }),
    tokens: new Counter({
      name: "crewdeck_llm_tokens_total",
      help: "Model tokens used, by crew, model and type (input, output).",
      labelNames: ["crew", "model", "type"] as const,
      ...on,
    }),
    cost: new Counter({
      name: "crewdeck_llm_cost_usd_total",
      help: "Estimated model cost in US dollars (list prices, MODEL_PRICES), by crew and model.",
      labelNames: ["crew", "model"] as const,
      ...on,
    }),
    takeovers: new Counter({
      name: "crewdeck_lease_takeovers_total",
      help: "Executions a worker took over mid-task (the previous worker died, or handed it back).",
      ...on,
    }),
  };
}

export type Metrics = ReturnType<typeof create>;

/** This process's metrics (one set, shared by every bundle). */
export function metrics(): Metrics {
  return processGlobal(SLOT, create);
}
