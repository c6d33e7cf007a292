import { z } from "zod";
import { json, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import type { AttemptResult } from "@/lib/webhooks/deliver";

// The webhook outbox's statements, as the delivery worker (delivery-worker.ts) runs them.

// `payload` is sent as stored: the webhook or notification it was built as.
const ClaimedRow = z.object({
  id: z.string(),
  url: z.string(),
  kind: z.string(),
  payload: json,
  attempts: num,
  auth_sealed: z.string().nullable(),
  /** Set when the endpoint has been disabled (it answered 410 Gone). */
  disabled: z.boolean(),
});
export type Claimed = z.infer<typeof ClaimedRow>;

/** Why a delivery to an endpoint that answered 410 Gone was not sent. */
const ENDPOINT_GONE = "endpoint disabled: it answered 410 Gone";

/**
 * Claims up to `limit` due deliveries with a lease of `leaseSeconds` for `workerId`.
 *
 * Read in index order (webhook_deliveries_claim), so a claim stops after `limit` rows however
 * long the backlog. A claimed delivery keeps its next_attempt_at (it was due), so both branches
 * are within `next_attempt_at <= now()`. The step and stream queues are checked with their kind
 * spelled out, so each check is a probe of its partial index. Step events go out in sequence
 * order (event_seq): one INSERT numbers its rows (position) in the order its plan returns them,
 * not necessarily the events'.
 */
export async function claimDue(
  db: Db,
  workerId: string,
  leaseSeconds: number,
  limit: number,
): Promise<Claimed[]> {
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
    [workerId, leaseSeconds, limit],
    ClaimedRow,
  );
  return rows;
}

/** Fails a delivery unsent (its endpoint is disabled): its claim is not counted as an attempt. */
export async function failUnsent(db: Db, deliveryId: string, workerId: string) {
  await db.query(
    `UPDATE webhook_deliveries
        SET status = 'failed', attempts = attempts - 1, last_error = $3, lease_owner = NULL,
            lease_expires_at = NULL, finished_at = now()
      WHERE id = $1 AND lease_owner = $2`,
    [deliveryId, workerId, ENDPOINT_GONE],
  );
}

/**
 * 410 Gone: the receiver asks never to be called again. Stop the endpoint, drop its queue — in
 * the transaction that records the attempt (rare: not batched).
 */
export async function recordGone(
  db: Db,
  {
    d,
    workerId,
    startedAt,
    r,
    error,
  }: { d: Claimed; workerId: string; startedAt: Date; r: AttemptResult; error: string | null },
) {
  await db.tx(async (q) => {
    await q.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING)
       UPDATE webhook_deliveries
          SET status = 'failed', last_status_code = $4, last_error = $6, lease_owner = NULL,
              lease_expires_at = NULL, next_attempt_at = now(), finished_at = now()
        WHERE id = $1 AND lease_owner = $7`,
      [d.id, d.attempts, startedAt, r.statusCode, r.latencyMs, error, workerId],
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
