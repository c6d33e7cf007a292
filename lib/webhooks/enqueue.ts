import crypto from "node:crypto";
import type { Queryable } from "@/lib/db/types";
import type {
  AppliedEvent,
  ExecutionRow,
  ProtocolPush,
  PushProtocol,
  StreamSubscription,
  WebhookUrls,
} from "@/lib/run-model/types";
import { targetUrl, webhookKind, webhookPayload } from "./payloads";
import { pushesAny, pushRenderer, runPushes } from "./protocol-push";
import { streamEvent, streamEventName } from "./stream-events";

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
  for (const d of plainDeliveries(row, urls, events)) {
    params.push(d.id, d.seq, d.kind, d.url, d.payload);
    const n = params.length;
    values.push(`($${n - 4}::uuid, $1::uuid, $${n - 3}::int, $${n - 2}, $${n - 1}, $${n}::jsonb)`);
  }
  const streamed =
    (urls.stream ? await enqueueStream(q, row, urls.stream, events) : 0) +
    (await enqueuePushes(q, row, urls, events));
  if (!values.length) {
    if (streamed) await q.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);
    return streamed;
  }
  const { rowCount } = await q.query(
    `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
     SELECT v.* FROM (VALUES ${values.join(", ")}) AS v(id, execution_id, event_seq, kind, url, payload)
      WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = v.url)
      ORDER BY v.event_seq`,
    params,
  );
  if (rowCount || streamed) await q.query(`SELECT pg_notify('${WEBHOOK_CHANNEL}', '')`);
  return rowCount + streamed;
}

export type PlainDelivery = { id: string; seq: number; kind: string; url: string; payload: string };

/** The task, step and crew webhooks `events` make (payloads serialised), streamed ones aside. */
export function plainDeliveries(
  row: ExecutionRow,
  urls: WebhookUrls,
  events: AppliedEvent[],
): PlainDelivery[] {
  return events.flatMap((event) => {
    const kind = webhookKind(event.type);
    const url = kind && targetUrl(kind, urls);
    if (!kind || !url) return [];
    const payload = JSON.stringify(webhookPayload(kind, row, event));
    return [{ id: crypto.randomUUID(), seq: event.seq, kind, url, payload }];
  });
}

/** Whether `events` go to the run's `webhooks` stream or its protocols' push endpoints. */
export function streamsAny(urls: WebhookUrls, events: AppliedEvent[]) {
  const stream = urls.stream;
  return (!!stream && events.some((e) => subscribed(stream, e))) || pushesAny(urls, events);
}

const subscribed = (stream: StreamSubscription, e: AppliedEvent) => {
  const name = streamEventName(e);
  return name !== undefined && stream.events.includes(name);
};

/** How long a batch of streamed events (realtime: false) gathers before it is sent. */
const STREAM_BATCH_MS = 1_000;

/**
 * The subscribed events as streamed webhooks (`{"events": [...]}`). Realtime: one delivery per
 * event, due at once. Otherwise events join the endpoint's batch that has not been sent yet —
 * due STREAM_BATCH_MS after its first event, or after the batch before it, whichever is later —
 * so a busy run makes a few POSTs rather than one per step.
 */
async function enqueueStream(
  q: Queryable,
  row: ExecutionRow,
  stream: StreamSubscription,
  events: AppliedEvent[],
) {
  const items = events.filter((e) => subscribed(stream, e)).map((e) => streamEvent(row, e));
  if (!items.length) return 0;
  const batches = stream.realtime ? items.map((item) => [item]) : [items];
  if (!stream.realtime) {
    // Joins the unsent batch (never one already tried: a retry resends what was sent).
    const { rowCount } = await q.query(
      `UPDATE webhook_deliveries SET payload = jsonb_set(payload, '{events}', (payload->'events') || $3::jsonb)
        WHERE id = (SELECT id FROM webhook_deliveries
                     WHERE execution_id = $1 AND url = $2 AND kind = 'stream' AND status = 'pending' AND attempts = 0
                     ORDER BY position DESC LIMIT 1 FOR UPDATE)
          AND status = 'pending' AND attempts = 0`,
      [row.id, stream.url, JSON.stringify(items)],
    );
    if (rowCount) return 0;
  }
  let inserted = 0;
  for (const batch of batches) {
    const { rowCount } = await q.query(
      `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload, auth_sealed, next_attempt_at)
       SELECT $1::uuid, $2::uuid, $3::int, 'stream', $4, $5::jsonb, $6,
              now() + make_interval(secs => $7::double precision)
        WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = $4)`,
      [
        crypto.randomUUID(),
        row.id,
        batch[0]?.sequence,
        stream.url,
        JSON.stringify({ events: batch }),
        stream.auth_sealed ?? null,
        stream.realtime ? 0 : STREAM_BATCH_MS / 1000,
      ],
    );
    inserted += rowCount;
  }
  return inserted;
}

/** Protocol push notifications: each endpoint gets the bodies its protocol renders, in order. */
async function enqueuePushes(
  q: Queryable,
  row: ExecutionRow,
  urls: WebhookUrls,
  events: AppliedEvent[],
) {
  let inserted = 0;
  for (const [protocol, pushes] of runPushes(urls))
    inserted += await enqueueProtocolPushes(q, row, protocol, pushes, events);
  return inserted;
}

async function enqueueProtocolPushes(
  q: Queryable,
  row: ExecutionRow,
  protocol: PushProtocol,
  pushes: ProtocolPush[],
  events: AppliedEvent[],
) {
  const payloads = pushRenderer(protocol).payloads(row, events);
  const seq = events.at(-1)?.seq ?? null;
  let inserted = 0;
  for (const push of pushes)
    for (const payload of payloads) {
      const { rowCount } = await q.query(
        `INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload, auth_sealed)
         SELECT $1::uuid, $2::uuid, $3::int, $4, $5, $6::jsonb, $7
          WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = $5)`,
        [
          crypto.randomUUID(),
          row.id,
          seq,
          protocol,
          push.url,
          JSON.stringify(payload),
          push.headers_sealed ?? null,
        ],
      );
      inserted += rowCount;
    }
  return inserted;
}
