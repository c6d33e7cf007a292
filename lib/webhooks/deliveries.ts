import { z } from "zod";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { WEBHOOK_CHANNEL } from "./enqueue";

export const DeliveriesQuerySchema = z.object({
  status: z.enum(["pending", "delivering", "succeeded", "failed"]).optional(),
  execution_id: z.uuid("execution_id must be a UUID").optional(),
  kind: z.enum(["step", "task", "crew"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe("Cursor: the `position` of the last delivery of the previous page"),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuerySchema>;

type AttemptRow = {
  attempt: number;
  started_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
};

/** Deliveries, newest first, each with every attempt made. */
export async function listDeliveries({ db, query }: { db: Db; query: DeliveriesQuery }) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace("?", `$${params.length}`));
  };
  if (query.status) add("d.status = ?", query.status);
  if (query.execution_id) add("d.execution_id = ?", query.execution_id);
  if (query.kind) add("d.kind = ?", query.kind);
  if (query.before) add("d.position < ?", query.before);
  params.push(query.limit);
  const { rows } = await db.query<
    { position: number; attempts_log: AttemptRow[] | null } & Record<string, unknown>
  >(
    `SELECT d.id, d.position::int AS position, d.execution_id, d.event_seq, d.kind, d.url, d.status, d.attempts,
            d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.finished_at, d.payload,
            (SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at, 'status_code', a.status_code,
                                               'latency_ms', a.latency_ms, 'error', a.error) ORDER BY a.attempt)
               FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts_log
       FROM webhook_deliveries d
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY d.position DESC LIMIT $${params.length}`,
    params,
  );
  const deliveries = rows.map(({ attempts_log, ...d }) => ({
    ...d,
    attempts_log: attempts_log ?? [],
  }));
  const last = deliveries.at(-1);
  return {
    deliveries,
    next_before: deliveries.length === query.limit && last ? last.position : null,
  };
}

/** Sends a delivery again now (one more attempt), and re-enables its endpoint if it had said 410. */
export async function redeliver({ db, id }: { db: Db; id: string }) {
  if (!z.uuid().safeParse(id).success) throw errors.notFound(`No delivery '${id}'.`);
  return db.tx(async (q) => {
    const { rows } = await q.query<{ status: string; url: string }>(
      "SELECT status, url FROM webhook_deliveries WHERE id = $1 FOR UPDATE",
      [id],
    );
    const row = rows[0];
    if (!row) throw errors.notFound(`No delivery '${id}'.`);
    if (row.status === "delivering")
      throw errors.conflict("This delivery is being attempted right now.");
    await q.query("DELETE FROM webhook_endpoints WHERE url = $1", [row.url]);
    await q.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), finished_at = NULL WHERE id = $1`,
      [id],
    );
    await q.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);
    return { id, status: "pending" as const };
  });
}
