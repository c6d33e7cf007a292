import type { Db } from "@/lib/db/types";
import { AppError } from "@/lib/errors";
import { parseJsonText, readTextBody } from "@/lib/http/read-json";
import { webhookSecret } from "./secret";
import { verify } from "./signing";

const INBOX_BODY_LIMIT = 1024 * 1024;

/** Verifies a Standard Webhooks signature and stores the event once, however often it is sent. */
export async function receiveWebhook({ db, request }: { db: Db; request: Request }) {
  // The signature covers the exact bytes sent: verify before parsing anything.
  const raw = await readTextBody(request, INBOX_BODY_LIMIT);
  const check = verify({ secret: webhookSecret(), headers: request.headers, body: raw });
  if (!check.ok)
    throw new AppError("bad-signature", 401, `Webhook signature rejected: ${check.reason}.`);
  // Malformed, too deeply nested, or holding a string PostgreSQL cannot store: 400, not a 500.
  const payload = parseJsonText(raw, "The webhook body");
  // The signature covers the id: a verified request has one.
  const id = request.headers.get("webhook-id") ?? "";
  const { rowCount } = await db.query(
    "INSERT INTO webhook_inbox (webhook_id, payload) VALUES ($1, $2::jsonb) ON CONFLICT (webhook_id) DO NOTHING",
    [id, JSON.stringify(payload)],
  );
  return { webhook_id: id, duplicate: rowCount === 0 };
}

export async function listInbox({ db, limit = 100 }: { db: Db; limit?: number }) {
  const { rows } = await db.query(
    "SELECT webhook_id, received_at, payload FROM webhook_inbox ORDER BY received_at DESC LIMIT $1",
    [limit],
  );
  return rows;
}
