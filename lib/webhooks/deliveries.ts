import { z } from "zod";
import { type DeliveriesPage, type Delivery, DeliverySchema } from "@/lib/contract/webhooks";
import { jsonArray, num, time } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { WEBHOOK_CHANNEL } from "./enqueue";

export const DeliveriesQuerySchema = z.object({
  status: z.enum(["pending", "delivering", "succeeded", "failed"]).optional(),
  execution_id: z.uuid("execution_id must be a UUID").optional(),
  kind: z.enum(["step", "task", "crew", "stream", "email", "slack", "a2a"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .describe("Cursor: the `position` of the last delivery of the previous page"),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuerySchema>;

type AttemptRow = Delivery["attempts_log"][number];
// A delivery as listed, in its columns' order; its attempts are JSON the statement builds.
const DeliveryRow = z.object({
  id: z.string(),
  position: num,
  execution_id: z.string(),
  crew: z.string().nullable(),
  event_seq: num.nullable(),
  kind: z.string(),
  url: z.string(),
  status: DeliverySchema.shape.status,
  attempts: num,
  next_attempt_at: time.nullable(),
  last_status_code: num.nullable(),
  last_error: z.string().nullable(),
  created_at: time,
  finished_at: time.nullable(),
  attempts_log: jsonArray<AttemptRow>().nullable(),
});

const SECRET_PARAM =
  /^(t|tok|token|access_token|api[-_]?key|key|secret|sig|signature|auth|password|pass|pwd|code|credential|session)$/i;
const REDACTED = "REDACTED";

/** The URL with anything secret-looking replaced: userinfo and secret query/fragment parameters. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL we can read: keep only what cannot hold a secret.
    return raw.replace(/[?#].*$/, `?${REDACTED}`).replace(/\/\/[^/@]*@/, `//${REDACTED}@`);
  }
  if (url.username || url.password) {
    url.username = REDACTED;
    url.password = "";
  }
  const redactParams = (params: URLSearchParams) => {
    let changed = false;
    for (const name of new Set(params.keys())) {
      if (SECRET_PARAM.test(name) || /(token|secret|key|sig|pass)/i.test(name)) {
        params.set(name, REDACTED);
        changed = true;
      }
    }
    return changed;
  };
  const query = new URLSearchParams(url.search);
  if (redactParams(query)) url.search = query.toString();
  if (url.hash.includes("=")) {
    const hash = new URLSearchParams(url.hash.slice(1));
    if (redactParams(hash)) url.hash = hash.toString();
  }
  return url.toString();
}

const iso = (t: Date | string) => new Date(t).toISOString();

/** Error texts may quote the URL (fetch errors do): redact every URL inside them. */
const redactText = (text: string) => text.replace(/https?:\/\/[^\s"'<>]+/g, (u) => redactUrl(u));

/** Deliveries, newest first, each with every attempt made; `next_before` pages on. */
export async function listDeliveries({
  db,
  query,
}: {
  db: Db;
  query: DeliveriesQuery;
}): Promise<DeliveriesPage> {
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
  const { rows } = await db.query(
    `SELECT d.id, d.position::int AS position, d.execution_id, e.crew, d.event_seq, d.kind, d.url, d.status, d.attempts,
            d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.finished_at,
            (SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at, 'status_code', a.status_code,
                                               'latency_ms', a.latency_ms, 'error', a.error) ORDER BY a.attempt)
               FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts_log
       FROM webhook_deliveries d LEFT JOIN executions e ON e.id = d.execution_id
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
      ORDER BY d.position DESC LIMIT $${params.length}`,
    params,
    DeliveryRow,
  );
  const deliveries = rows.map(({ attempts_log, ...d }) => ({
    ...d,
    created_at: iso(d.created_at),
    finished_at: d.finished_at === null ? null : iso(d.finished_at),
    // Only a delivery still owed has a next attempt.
    next_attempt_at:
      d.status === "pending" && d.next_attempt_at !== null ? iso(d.next_attempt_at) : null,
    url: redactUrl(d.url),
    attempts_log: (attempts_log ?? []).map((a) => ({
      ...a,
      error: a.error === null ? null : redactText(a.error),
    })),
    last_error: d.last_error === null ? null : redactText(d.last_error),
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
    const { rows } = await q.query(
      "SELECT status, url FROM webhook_deliveries WHERE id = $1 FOR UPDATE",
      [id],
      z.object({ status: z.string(), url: z.string() }),
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
