import { env } from "@/lib/config/env";
import type { Db } from "@/lib/db/types";
import { startRemotePoller } from "@/lib/deployments/poller";
import { startWorker } from "@/lib/engine/worker";
import { startExperimentRunner } from "@/lib/experiments/runner";
import { startDeliveryWorker } from "@/lib/notify/delivery-worker";
import { startRetentionSweeper } from "@/lib/retention/sweeper";
import { startReviewClock } from "@/lib/reviews/clock";
import { schedulerClock } from "@/lib/schedules/clock";
import { startScheduler } from "@/lib/schedules/scheduler";
import { closeMcpPool } from "@/lib/tools/mcp/pool";
import { parseSchedule } from "@/lib/webhooks/schedule";
import { webhookSecret } from "@/lib/webhooks/secret";

/**
 * What a worker process runs: the engine, the webhook outbox, the review clock, the scheduler,
 * the experiment runner.
 */
export function startWorkers(db: Db) {
  const e = env();
  const engine = startWorker({
    db,
    concurrency: e.WORKER_CONCURRENCY,
    leaseMs: e.WORKER_LEASE_MS,
    pollMs: e.WORKER_POLL_MS,
  });
  const deliveries = startDeliveryWorker({
    db,
    secret: webhookSecret(),
    schedule: parseSchedule(e.WEBHOOK_RETRY_SCHEDULE),
    timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    concurrency: e.WEBHOOK_CONCURRENCY,
  });
  const poller = startRemotePoller({ db });
  const reviewClock = startReviewClock({ db, intervalMs: e.REVIEW_CLOCK_MS });
  const retention = startRetentionSweeper({ db });
  const scheduler = startScheduler({
    db,
    pollMs: e.SCHEDULER_POLL_MS,
    now: schedulerClock(e.SCHEDULER_CLOCK_FILE),
  });
  const experiments = startExperimentRunner({
    db,
    pollMs: e.EXPERIMENT_POLL_MS,
    leaseMs: e.EXPERIMENT_LEASE_MS,
  });
  return {
    id: engine.id,
    /** Finishes or hands back running executions, then flushes due deliveries: within `deadlineMs`. */
    async stop(deadlineMs = 0) {
      const until = Date.now() + deadlineMs;
      // Most of the time goes to running work; keep a fifth for the webhooks it produces.
      await Promise.all([
        engine.stop(deadlineMs * 0.8),
        poller.stop(),
        reviewClock.stop(),
        retention.stop(),
        scheduler.stop(),
        experiments.stop(),
      ]);
      // No task uses an MCP server any more: end their connections (and stdio processes).
      await closeMcpPool();
      await deliveries.stop(Math.max(0, until - Date.now()));
    },
  };
}
