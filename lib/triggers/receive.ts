import crypto from "node:crypto";
import { unseal } from "@/lib/config/encryption";
import { findCrew } from "@/lib/crew/registry";
import { notifyCommitted } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { AppError, errors } from "@/lib/errors";
import { afterStops, applyConcurrency } from "@/lib/runs/concurrency";
import { createExecutionIn } from "@/lib/runs/create-execution";
import {
  type PlannedRun,
  planRun,
  type Received,
  type Refused,
  readableHeaders,
  refusalOf,
  refuse,
} from "./delivery-plan";
import { checkGithubReplay } from "./replays";
import { verifyDelivery } from "./signatures";
import { pruneEvents, TriggerRow, uuidOr404 } from "./store";
import { triggerLimits } from "./throttle";

export { GITHUB_REPLAY_WINDOW_DAYS } from "./replays";

/**
 * One delivery to a trigger, in order: the signature (the sender's credential), the trigger's
 * state and rate, for GitHub the body's replay check (lib/triggers/replays.ts), the delivery id
 * (seen before: the run it started then), the payload mapped to inputs, then — in one
 * transaction, under the delivery id's lock — the concurrency key's policy, the run and its entry
 * in the log. Every delivery is logged with what became of it (unsigned ones up to a rate, so a
 * flood cannot fill the log).
 */
export async function receiveDelivery(
  db: Db,
  {
    triggerId,
    headers,
    body,
    now = new Date(),
  }: {
    triggerId: string;
    headers: Record<string, string>;
    body: Buffer;
    now?: Date;
  },
): Promise<Received> {
  const t = await triggerOr404(db, triggerId);
  const log = (r: Received, deliveryId: string | null) => logRefusal(db, t.id, deliveryId, body, r);
  const verified = verifyDelivery(t.signature, unseal(t.secret_enc), headers, body, now);
  if (!verified.ok) {
    const r = refuse(401, "unauthorized", verified.reason);
    if (triggerLimits.logUnsigned(t.id, now)) await log(r, null);
    return r;
  }
  const deliveryId = verified.deliveryId?.slice(0, 200) ?? null;
  const refused = await admission(db, t, { deliveryId, headers, body, now });
  if (refused) {
    // A refusal logged with its answer; Retry-After is for the sender alone.
    await log({ ok: false, answer: refused.answer }, deliveryId);
    return refused;
  }
  const seen = deliveryId ? await startedBy(db, t.id, deliveryId) : null;
  if (seen) return logDuplicate(db, t.id, deliveryId, body, seen);
  const planned = planRun(t, findCrew(t.crew), body, readableHeaders(headers));
  if ("ok" in planned) return log(planned, deliveryId);
  try {
    return await startRun(db, t, planned, { deliveryId, body });
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    // The crew's inputs refused (missing, invalid) or the key's policy said no: logged, as said.
    return log(refusalOf(err), deliveryId);
  }
}

async function triggerOr404(db: Db, triggerId: string): Promise<TriggerRow> {
  const { rows } = await db.query(
    "SELECT * FROM triggers WHERE id = $1",
    [uuidOr404(triggerId)],
    TriggerRow,
  );
  const t = rows[0];
  if (!t) throw errors.notFound(`No trigger ${triggerId}.`);
  return t;
}

/**
 * Whether a signed delivery may go on: the trigger not paused, within its rate, and for GitHub
 * not a replay. Old log entries are pruned once it is past the rate.
 */
async function admission(
  db: Db,
  t: TriggerRow,
  d: { deliveryId: string | null; headers: Record<string, string>; body: Buffer; now: Date },
): Promise<Refused | undefined> {
  if (t.paused) return refuse(409, "refused", "This trigger is paused: resume it to start runs.");
  const wait = triggerLimits.take(t.id, d.now);
  if (wait !== null)
    return {
      ...refuse(
        429,
        "limited",
        `This trigger takes at most ${triggerLimits.perMinute} deliveries a minute; retry in ${wait} s.`,
      ),
      headers: { "retry-after": String(wait) },
    };
  await pruneEvents(db, t.id, d.now);
  if (t.signature !== "github") return undefined;
  const replay = await checkGithubReplay(db, {
    triggerId: t.id,
    deliveryId: d.deliveryId,
    signature: d.headers["x-hub-signature-256"] ?? "",
    body: d.body,
    now: d.now,
  });
  if (replay.ok) return undefined;
  return refuse(replay.status, replay.status === 400 ? "invalid" : "refused", replay.detail);
}

/**
 * In one transaction, under the delivery id's lock: the concurrency key's policy, the run and its
 * entry in the log; the run a copy of this delivery started meanwhile, if one did.
 */
async function startRun(
  db: Db,
  t: TriggerRow,
  { crew, inputs, concurrency }: PlannedRun,
  { deliveryId, body }: { deliveryId: string | null; body: Buffer },
): Promise<Received> {
  const id = crypto.randomUUID();
  const eventId = crypto.randomUUID();
  const done = await db.tx(async (q) => {
    if (deliveryId) {
      // Two copies of one delivery at once: the second waits here, then finds the first's run.
      await q.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
        JSON.stringify(["trigger", t.id, deliveryId]),
      ]);
      const first = await startedBy(q, t.id, deliveryId);
      if (first) return { duplicateOf: first, notify: [], stopped: [] };
    }
    const stopped = concurrency
      ? await applyConcurrency(q, t.crew, concurrency, {
          id,
          by: `trigger ${t.name}`,
          owner: t.concurrency_owner,
        })
      : [];
    const { notify } = await createExecutionIn(q, {
      db,
      crew,
      id,
      principal: { kind: "org", tokenId: null },
      request: { inputs, ...(concurrency ? { concurrency } : {}) },
      keyOwner: t.concurrency_owner,
      starter: {
        ownerUserId: t.owner_user_id,
        tokenId: null,
        via: "trigger",
        name: t.name,
        triggerId: t.id,
      },
    });
    await q.query(
      `INSERT INTO trigger_events (id, trigger_id, delivery_id, outcome, status_code, execution_id, payload_bytes)
       VALUES ($1, $2, $3, 'started', 202, $4, $5)`,
      [eventId, t.id, deliveryId, id, body.length],
    );
    return { duplicateOf: null, notify, stopped };
  });
  if (done.duplicateOf) return logDuplicate(db, t.id, deliveryId, body, done.duplicateOf);
  notifyCommitted(db, done.notify);
  afterStops(done.stopped);
  return { ok: true, kickoffId: id, eventId, duplicate: false };
}

async function startedBy(q: Pick<Db, "query">, triggerId: string, deliveryId: string) {
  const { rows } = await q.query(
    "SELECT execution_id FROM trigger_events WHERE trigger_id = $1 AND delivery_id = $2 AND outcome = 'started' LIMIT 1",
    [triggerId, deliveryId],
  );
  const id = rows[0]?.execution_id;
  return typeof id === "string" ? id : null;
}

async function logDuplicate(
  db: Db,
  triggerId: string,
  deliveryId: string | null,
  body: Buffer,
  executionId: string,
): Promise<Received> {
  const eventId = crypto.randomUUID();
  await db.query(
    `INSERT INTO trigger_events (id, trigger_id, delivery_id, outcome, status_code, detail, execution_id, payload_bytes)
     VALUES ($1, $2, $3, 'duplicate', 200, $4, $5, $6)`,
    [
      eventId,
      triggerId,
      deliveryId,
      `Delivery ${deliveryId} was received before: it started run ${executionId}; nothing new started.`,
      executionId,
      body.length,
    ],
  );
  return { ok: true, kickoffId: executionId, eventId, duplicate: true };
}

async function logRefusal(
  db: Db,
  triggerId: string,
  deliveryId: string | null,
  body: Buffer,
  r: Received,
): Promise<Received> {
  if (r.ok) return r;
  const { status, outcome, detail, errors } = r.answer;
  await db.query(
    `INSERT INTO trigger_events (id, trigger_id, delivery_id, outcome, status_code, detail, errors, payload_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
    [
      crypto.randomUUID(),
      triggerId,
      deliveryId,
      outcome,
      status,
      detail,
      errors ? JSON.stringify(errors) : null,
      body.length,
    ],
  );
  return r;
}
