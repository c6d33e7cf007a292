import crypto from "node:crypto";
import type { Queryable } from "@/lib/db/types";
import type { AppliedEvent } from "@/lib/runs/execution-store";
import type { ExecutionRow, WebhookUrls } from "@/lib/runs/types";
import { targetUrl, webhookKind, webhookPayload } from "./payloads";

export const WEBHOOK_CHANNEL = "crewdeck_webhooks";

/**
 * Writes the deliveries for `events` into the outbox, in the caller's transaction: a webhook is
 * owed exactly when its event exists. Endpoints that answered 410 Gone get nothing more.
 */
export async function enqueueWebhooks(
  q: Queryable,
  { row, urls, events }: { row: ExecutionRow; urls: WebhookUrls; events: AppliedEvent[] },
) {
  const values: string[] = [];
  const params: unknown[] = [row.id];
  for (const event of events) {
    const kind = webhookKind(event.type);
    const url = kind && targetUrl(kind, urls);
    if (!kind || !url) continue;
    params.push(
      crypto.randomUUID(),
      event.seq,
      kind,
      url,
      JSON.stringify(webhookPayload(kind, row, event)),
    );
    const n = params.length;
    values.push(`($${n - 4}::uuid, $1::uuid, $${n - 3}::int, $${n - 2}, $${n - 1}, $${n}::jsonb)`);
  }
  if (!values.length) return 0;
  const { rowCount } = await q.query(
    `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
     SELECT v.* FROM (VALUES ${values.join(", ")}) AS v(id, execution_id, event_seq, kind, url, payload)
      WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = v.url)`,
    params,
  );
  if (rowCount) await q.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);
  return rowCount;
}
