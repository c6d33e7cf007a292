import type { Db } from "@/lib/db/types";

/** One finished attempt and the delivery's new state. */
export type AttemptRecord = {
  id: string;
  attempt: number;
  startedAt: Date;
  status: "succeeded" | "failed" | "pending";
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Until the retry (pending); 0 otherwise. */
  delaySeconds: number;
};

// A statement's arrays stay a reasonable size; more waiting go in the next one.
const MAX_BATCH = 500;

/**
 * Records attempts in batches: one statement writes every attempt that finished while the one
 * before it ran (or in the same turn of the event loop), with each delivery's new state. A delivery is updated
 * only while this worker still holds its lease (another may have taken it over since); its
 * attempt is logged either way, once. `record` resolves once its attempt is written.
 */
export function createAttemptRecorder(db: Db, workerId: string) {
  type Waiting = { r: AttemptRecord; resolve: () => void; reject: (err: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;

  async function write(batch: AttemptRecord[]) {
    const col = <K extends keyof AttemptRecord>(k: K) => batch.map((r) => r[k]);
    await db.query(
      `WITH r AS (
         SELECT * FROM unnest($2::uuid[], $3::int[], $4::timestamptz[], $5::text[], $6::int[],
                              $7::int[], $8::text[], $9::float8[])
           AS r(id, attempt, started_at, status, status_code, latency_ms, error, delay_s)
       ), attempt AS (
         INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, latency_ms, error)
         SELECT id, attempt, started_at, status_code, latency_ms, error FROM r ON CONFLICT DO NOTHING)
       UPDATE webhook_deliveries d
          SET status = r.status, last_status_code = r.status_code, last_error = r.error,
              lease_owner = NULL, lease_expires_at = NULL,
              next_attempt_at = now() + make_interval(secs => r.delay_s),
              finished_at = CASE WHEN r.status IN ('succeeded', 'failed') THEN now() END
         FROM r
        WHERE d.id = r.id AND d.lease_owner = $1`,
      [
        workerId,
        col("id"),
        col("attempt"),
        batch.map((r) => r.startedAt.toISOString()),
        col("status"),
        col("statusCode"),
        col("latencyMs"),
        col("error"),
        col("delaySeconds"),
      ],
    );
  }

  async function drain() {
    while (queue.length) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      try {
        await write(batch.map((w) => w.r));
        for (const w of batch) w.resolve();
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    writing = false;
  }

  return {
    record(r: AttemptRecord): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ r, resolve, reject });
        if (writing) return;
        writing = true;
        // Answers read in the same turn of the event loop go in one statement.
        setImmediate(() => void drain());
      });
    },
  };
}
