import crypto from "node:crypto";
import os from "node:os";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { observeDelivery } from "@/lib/metrics/observe";
import { isNotification, sendNotification } from "@/lib/notify/send";
import { createNapper } from "@/lib/util/napper";
import { type AttemptResult, postWebhook } from "./deliver";
import { WEBHOOK_CHANNEL } from "./enqueue";
import { nextAttempt } from "./schedule";
import { signatureHeaders } from "./signing";
import { authorizationOf } from "./stream-subscription";

type Claimed = {
  id: string;
  url: string;
  kind: string;
  payload: unknown;
  attempts: number;
  auth_sealed: string | null;
};

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
  const running = new Set<Promise<void>>();
  db.listen(WEBHOOK_CHANNEL, () => napper.wake()).catch((err) =>
    log(`[webhooks] LISTEN failed: ${err.message}`),
  );

  async function claim(limit: number): Promise<Claimed[]> {
    const { rows } = await db.query<Claimed>(
      `UPDATE webhook_deliveries d
          SET status = 'delivering', attempts = d.attempts + 1, lease_owner = $1,
              lease_expires_at = now() + make_interval(secs => $2)
        WHERE d.id IN (
          SELECT c.id FROM webhook_deliveries c
           WHERE ((c.status = 'pending' AND c.next_attempt_at <= now())
                  OR (c.status = 'delivering' AND c.lease_expires_at < now()))
             AND NOT (c.kind IN ('step', 'stream') AND EXISTS (
                   SELECT 1 FROM webhook_deliveries p
                    WHERE p.kind = c.kind AND p.execution_id = c.execution_id AND p.url = c.url
                      AND p.position < c.position
                      AND p.status IN ('pending', 'delivering')))
           ORDER BY c.next_attempt_at, c.position
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.url, d.kind, d.payload, d.attempts, d.auth_sealed`,
      [id, (timeoutMs * 2) / 1000, limit],
    );
    return rows;
  }

  async function deliver(d: Claimed) {
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
        ...authorizationOf(d.auth_sealed),
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
    // The attempt and the delivery's new state, in one statement.
    const sql = `WITH attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
           VALUES ($1, $7, $8, $3, $9, $4) ON CONFLICT DO NOTHING)
         UPDATE webhook_deliveries
            SET status = $2, last_status_code = $3, last_error = $4, lease_owner = NULL, lease_expires_at = NULL,
                next_attempt_at = now() + make_interval(secs => $5),
                finished_at = CASE WHEN $2 IN ('succeeded', 'failed') THEN now() END
          WHERE id = $1 AND lease_owner = $6`;
    const params = [
      d.id,
      status,
      r.statusCode,
      next.error,
      (delay ?? 0) / 1000,
      id,
      d.attempts,
      startedAt,
      r.latencyMs,
    ];
    if (!gone) {
      await db.query(sql, params);
      return;
    }
    await db.tx(async (q) => {
      await q.query(sql, params);
      if (gone) {
        // 410 Gone: the receiver asks never to be called again. Stop the endpoint, drop its queue.
        await q.query(
          `INSERT INTO webhook_endpoints (url, disabled_reason) VALUES ($1, 'answered 410 Gone')
           ON CONFLICT (url) DO NOTHING`,
          [d.url],
        );
        await q.query(
          `UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled: it answered 410 Gone', finished_at = now()
            WHERE url = $1 AND status = 'pending'`,
          [d.url],
        );
      }
    });
  }

  let failing = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        const room = concurrency - inFlight;
        const batch = room > 0 ? await claim(room) : [];
        failing = false;
        for (const d of batch) {
          inFlight++;
          const p = deliver(d)
            .catch((err) =>
              log(`[webhooks] delivery ${d.id} could not be recorded: ${(err as Error).message}`),
            )
            .finally(() => {
              inFlight--;
              running.delete(p);
              napper.wake();
            });
          running.add(p);
        }
        if (batch.length === room && room > 0) continue; // more may be due right now
        if (flushing && batch.length === 0 && inFlight === 0) break;
      } catch (err) {
        // A database outage is reported once by the Db; back off instead of retrying (and
        // logging) every poll.
        if (!isConnectionError(err))
          log(`[webhooks] cannot claim deliveries: ${(err as Error).message}`);
        failing = true;
      }
      await napper.nap(failing ? Math.max(pollMs, 2_000) : pollMs);
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
