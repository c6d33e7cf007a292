import crypto from "node:crypto";
import os from "node:os";
import { z } from "zod";
import { json, num } from "@/lib/db/columns";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { observeDelivery } from "@/lib/metrics/observe";
import { createNapper, idleBackoff } from "@/lib/util/napper";
import { pushHeaders } from "@/lib/webhooks/a2a-push";
import { type AttemptResult, postWebhook } from "@/lib/webhooks/deliver";
import { WEBHOOK_CHANNEL } from "@/lib/webhooks/enqueue";
import { createAttemptRecorder } from "@/lib/webhooks/record-attempts";
import { nextAttempt } from "@/lib/webhooks/schedule";
import { signatureHeaders } from "@/lib/webhooks/signing";
import { authorizationOf } from "@/lib/webhooks/stream-subscription";
import { isNotification, sendNotification } from "./send";

// `payload` is sent as stored: the webhook or notification it was built as.
const Claimed = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.string(),
  payload: json,
  attempts: num,
  auth_sealed: z.string().nullable(),
  /** Set when the endpoint has been disabled (it answered 410 Gone). */
  disabled: z.boolean(),
});
type Claimed = z.infer<typeof Claimed>;

/** Why a delivery to an endpoint that answered 410 Gone was not sent. */
const ENDPOINT_GONE = "endpoint disabled: it answered 410 Gone";

export type DeliveryWorkerOptions = {
  db: Db;
  secret: string;
  schedule: number[];
  timeoutMs: number;
  concurrency: number;
  pollMs?: number;
  log?: (msg: string) => void;
};

/**
 * Works the webhook outbox: claims due deliveries with a lease (so a crashed process's are
 * retried by another), POSTs them signed, records every attempt, schedules retries. An
 * execution's step (and streamed) events go to each endpoint in sequence order: only its oldest
 * unfinished one is ever due (other executions' events do not wait for it).
 *
 * Throughput: connections to an endpoint are kept alive (deliver.ts), attempts are recorded in
 * batches (record-attempts.ts), and the outbox is claimed again once half the slots are free
 * (or none is busy) rather than on every finished delivery.
 */
export function startDeliveryWorker({
  db,
  secret,
  schedule,
  timeoutMs,
  concurrency,
  pollMs = 200,
  log = console.log,
}: DeliveryWorkerOptions) {
  const id = `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString("hex")}`;
  let inFlight = 0;
  let stopping = false;
  // Shutting down, but delivering what is due first: the loop ends once nothing is left to claim.
  let flushing = false;
  const napper = createNapper();
  const naps = idleBackoff(pollMs);
  const running = new Set<Promise<void>>();
  const recorder = createAttemptRecorder(db, id);
  db.listen(WEBHOOK_CHANNEL, () => napper.wake()).catch((err) =>
    log(`[webhooks] LISTEN failed: ${errorMessage(err)}`),
  );

  async function claim(limit: number): Promise<Claimed[]> {
    // Read in index order (webhook_deliveries_claim), so a claim stops after `limit` rows however
    // long the backlog. A claimed delivery keeps its next_attempt_at (it was due), so both
    // branches are within `next_attempt_at <= now()`. The step and stream queues are checked
    // with their kind spelled out, so each check is a probe of its partial index. Step events go
    // out in sequence order (event_seq): one INSERT numbers its rows (position) in the order its
    // plan returns them, not necessarily the events'.
    const { rows } = await db.query(
      `UPDATE webhook_deliveries d
          SET status = 'delivering', attempts = d.attempts + 1, lease_owner = $1,
              lease_expires_at = now() + make_interval(secs => $2)
        WHERE d.id IN (
          SELECT c.id FROM webhook_deliveries c
           WHERE c.status IN ('pending', 'delivering') AND c.next_attempt_at <= now()
             AND (c.status = 'pending' OR c.lease_expires_at < now())
             AND NOT (c.kind = 'step' AND EXISTS (
                   SELECT 1 FROM webhook_deliveries p
                    WHERE p.kind = 'step' AND p.status IN ('pending', 'delivering')
                      AND p.execution_id = c.execution_id AND p.url = c.url
                      AND p.event_seq < c.event_seq))
             AND NOT (c.kind = 'stream' AND EXISTS (
                   SELECT 1 FROM webhook_deliveries p
                    WHERE p.kind = 'stream' AND p.status IN ('pending', 'delivering')
                      AND p.execution_id = c.execution_id AND p.url = c.url
                      AND p.position < c.position))
             AND NOT (c.kind = 'a2a' AND EXISTS (
                   SELECT 1 FROM webhook_deliveries p
                    WHERE p.kind = 'a2a' AND p.status IN ('pending', 'delivering')
                      AND p.execution_id = c.execution_id AND p.url = c.url
                      AND p.position < c.position))
           ORDER BY c.next_attempt_at, c.position
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.url, d.kind, d.payload, d.attempts, d.auth_sealed,
                  EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = d.url) AS disabled`,
      [id, (timeoutMs * 2) / 1000, limit],
      Claimed,
    );
    return rows;
  }

  async function deliver(d: Claimed) {
    // On PostgreSQL a delivery can be queued while the 410 that disables its endpoint is being
    // recorded: its enqueue did not see the endpoint yet, the 410's sweep did not see it either.
    // It is failed here, unsent: a receiver that answered 410 is never called again.
    if (d.disabled && !isNotification(d.kind)) {
      await db.query(
        `UPDATE webhook_deliveries
            SET status = 'failed', attempts = attempts - 1, last_error = $3, lease_owner = NULL,
                lease_expires_at = NULL, finished_at = now()
          WHERE id = $1 AND lease_owner = $2`,
        [d.id, id, ENDPOINT_GONE],
      );
      return;
    }
    const startedAt = new Date();
    // E-mail and Slack notifications share the outbox: the same claims, retries and log.
    if (isNotification(d.kind)) {
      const result = await sendNotification({ db, kind: d.kind, payload: d.payload, timeoutMs });
      await record(d, startedAt, result);
      return;
    }
    const body = JSON.stringify(d.payload);
    const result = await postWebhook({
      url: d.url,
      body,
      headers: {
        ...signatureHeaders({ secret, id: d.id, body }),
        ...(d.kind === "a2a" ? pushHeaders(d.auth_sealed) : authorizationOf(d.auth_sealed)),
      },
      timeoutMs,
    });
    await record(d, startedAt, result);
  }

  async function record(d: Claimed, startedAt: Date, r: AttemptResult) {
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    // (An SMTP reply is never 410; a Slack URL is a setting, not an endpoint to disable.)
    const gone = r.statusCode === 410 && !isNotification(d.kind);
    // A host that has stopped resolving is given up on after a few attempts, not 32 hours.
    const next = nextAttempt(schedule, d.attempts, r);
    const delay = ok || gone ? null : next.delayMs;
    const status = ok ? "succeeded" : delay === null ? "failed" : "pending";
    observeDelivery(d.kind, status);
    const attempt = {
      id: d.id,
      attempt: d.attempts,
      startedAt,
      status,
      statusCode: r.statusCode,
      latencyMs: r.latencyMs,
      error: next.error,
      delaySeconds: (delay ?? 0) / 1000,
    } as const;
    if (!gone) {
      await recorder.record(attempt);
      // The retry is this worker's own schedule: claim it when due, however long the idle nap.
      if (delay !== null) napper.wakeIn(delay);
      return;
    }
    // 410 Gone: the receiver asks never to be called again. Stop the endpoint, drop its queue —
    // in the transaction that records the attempt (rare: not batched).
    await db.tx(async (q) => {
      await q.query(
        `WITH attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING)
         UPDATE webhook_deliveries
            SET status = 'failed', last_status_code = $4, last_error = $6, lease_owner = NULL,
                lease_expires_at = NULL, next_attempt_at = now(), finished_at = now()
          WHERE id = $1 AND lease_owner = $7`,
        [d.id, d.attempts, startedAt, r.statusCode, r.latencyMs, next.error, id],
      );
      await q.query(
        `INSERT INTO webhook_endpoints (url, disabled_reason) VALUES ($1, 'answered 410 Gone')
         ON CONFLICT (url) DO NOTHING`,
        [d.url],
      );
      await q.query(
        `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, finished_at = now()
          WHERE url = $1 AND status = 'pending'`,
        [d.url, ENDPOINT_GONE],
      );
    });
  }

  let failing = false;
  let claimedAt = 0;
  const loop = (async () => {
    while (!stopping) {
      let found = false;
      try {
        const room = concurrency - inFlight;
        // Claim for many slots at once: claiming for each one that frees up would cost a
        // statement per delivery. But a free slot waits no longer than a poll (slow endpoints
        // may hold the others). A slot is busy until its attempt is recorded, so an
        // execution's next step is claimable by then.
        const worthIt =
          room > 0 &&
          (inFlight === 0 || room >= concurrency / 2 || Date.now() - claimedAt >= pollMs);
        const batch = worthIt ? await claim(room) : [];
        if (worthIt) claimedAt = Date.now();
        failing = false;
        // A claim put off while slots are busy counts as work: the free slot waits a poll at most.
        found = batch.length > 0 || (room > 0 && !worthIt);
        for (const d of batch) {
          inFlight++;
          const p = deliver(d)
            .catch((err) =>
              log(`[webhooks] delivery ${d.id} could not be recorded: ${errorMessage(err)}`),
            )
            .finally(() => {
              inFlight--;
              running.delete(p);
              napper.wake();
            });
          running.add(p);
        }
        if (worthIt && batch.length === room) continue; // more may be due right now
        if (flushing && batch.length === 0 && inFlight === 0) break;
      } catch (err) {
        // A database outage is reported once by the Db; back off instead of retrying (and
        // logging) every poll.
        if (!isConnectionError(err))
          log(`[webhooks] cannot claim deliveries: ${errorMessage(err)}`);
        failing = true;
      }
      // New deliveries are announced (NOTIFY) and a finished one wakes the loop: idle, it naps
      // longer each round.
      await napper.nap(failing ? Math.max(pollMs, 2_000) : naps.after(found));
    }
  })();

  return {
    id,
    /**
     * Delivers what is due for up to `flushMs` (an attempt that fails is left for its retry, not
     * retried now), then stops claiming and lets the attempts under way finish.
     */
    async stop(flushMs = 0) {
      flushing = true;
      napper.wake();
      const timer = setTimeout(() => {
        stopping = true;
        napper.wake();
      }, flushMs);
      await loop;
      clearTimeout(timer);
      stopping = true;
      await Promise.allSettled([...running]);
    },
  };
}
