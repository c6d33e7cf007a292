import crypto from "node:crypto";
import { unseal } from "@/lib/config/encryption";
import type { Concurrency } from "@/lib/contract/crew";
import { findCrew } from "@/lib/crew/registry";
import { notifyCommitted } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { AppError, errorMessage, errors, type FieldError } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/read-json";
import { afterStops, applyConcurrency } from "@/lib/runs/concurrency";
import { createExecutionIn } from "@/lib/runs/create-execution";
import { applyMapping } from "./payload-mapping";
import { checkGithubReplay } from "./replays";
import { verifyDelivery } from "./signatures";
import { pruneEvents, TriggerRow, uuidOr404 } from "./store";
import { type TriggerOutcome, triggerLimits } from "./throttle";

export { GITHUB_REPLAY_WINDOW_DAYS } from "./replays";

type Answer = { status: number; outcome: TriggerOutcome; detail: string; errors?: FieldError[] };
export type Received =
  | { ok: true; kickoffId: string; eventId: string; duplicate: boolean }
  | { ok: false; answer: Answer; headers?: Record<string, string> };

const refuse = (
  status: number,
  outcome: TriggerOutcome,
  detail: string,
  fieldErrors?: FieldError[],
): Received => ({
  ok: false,
  answer: { status, outcome, detail, ...(fieldErrors ? { errors: fieldErrors } : {}) },
});

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
  const { rows } = await db.query(
    "SELECT * FROM triggers WHERE id = $1",
    [uuidOr404(triggerId)],
    TriggerRow,
  );
  const t = rows[0];
  if (!t) throw errors.notFound(`No trigger ${triggerId}.`);
  const log = (r: Received, deliveryId: string | null) => logRefusal(db, t.id, deliveryId, body, r);
  const verified = verifyDelivery(t.signature, unseal(t.secret_enc), headers, body, now);
  if (!verified.ok) {
    const r = refuse(401, "unauthorized", verified.reason);
    if (triggerLimits.logUnsigned(t.id, now)) await log(r, null);
    return r;
  }
  const deliveryId = verified.deliveryId?.slice(0, 200) ?? null;
  if (t.paused)
    return log(
      refuse(409, "refused", "This trigger is paused: resume it to start runs."),
      deliveryId,
    );
  const wait = triggerLimits.take(t.id, now);
  if (wait !== null) {
    const r = refuse(
      429,
      "limited",
      `This trigger takes at most ${triggerLimits.perMinute} deliveries a minute; retry in ${wait} s.`,
    );
    await log(r, deliveryId);
    return {
      ok: false,
      answer: (r as { answer: Answer }).answer,
      headers: { "retry-after": String(wait) },
    };
  }
  await pruneEvents(db, t.id, now);
  if (t.signature === "github") {
    const replay = await checkGithubReplay(db, {
      triggerId: t.id,
      deliveryId,
      signature: headers["x-hub-signature-256"] ?? "",
      body,
      now,
    });
    if (!replay.ok)
      return log(
        refuse(replay.status, replay.status === 400 ? "invalid" : "refused", replay.detail),
        deliveryId,
      );
  }
  const seen = deliveryId ? await startedBy(db, t.id, deliveryId) : null;
  if (seen) return logDuplicate(db, t.id, deliveryId, body, seen);
  let payload: unknown = null;
  try {
    payload = body.length ? parseJsonText(body.toString("utf8"), "The payload") : null;
  } catch (err) {
    return log(refuse(400, "invalid", errorMessage(err)), deliveryId);
  }
  const crew = findCrew(t.crew);
  if (!crew)
    return log(
      refuse(
        409,
        "refused",
        `The crew '${t.crew}' is not loaded (removed, or its files are broken).`,
      ),
      deliveryId,
    );
  const mapped = mapDelivery(t, payload, readableHeaders(headers));
  if ("errors" in mapped)
    return log(
      refuse(422, "invalid", "The payload does not map to the crew's inputs.", mapped.errors),
      deliveryId,
    );
  const { inputs, concurrency } = mapped;
  const id = crypto.randomUUID();
  const eventId = crypto.randomUUID();
  try {
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
        request: {
          inputs: inputs as Record<string, never>,
          ...(concurrency ? { concurrency } : {}),
        },
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
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    // The crew's inputs refused (missing, invalid) or the key's policy said no: logged, as said.
    const fieldErrors = [
      ...((err.details.errors as FieldError[] | undefined) ?? []),
      ...((err.details.missing_inputs as string[] | undefined) ?? []).map((name) => ({
        path: `inputs.${name}`,
        message: "required by the crew; map it or give it a fixed value",
      })),
    ];
    const r = refuse(
      err.status,
      err.status === 409 ? "refused" : "invalid",
      err.message,
      fieldErrors.length ? fieldErrors : undefined,
    );
    return log(r, deliveryId);
  }
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

/** The run's inputs (fixed, then mapped) and concurrency key from the payload, or what failed. */
function mapDelivery(t: TriggerRow, payload: unknown, headers: Record<string, string>) {
  const mapped = applyMapping(t.mapping, payload, headers);
  const problems: FieldError[] = [...mapped.errors];
  let concurrency: Concurrency | null = null;
  if (t.concurrency) {
    const key = applyMapping({ key: t.concurrency.key }, payload, headers);
    const value = key.inputs.key;
    if (key.errors.length)
      problems.push(...key.errors.map((e) => ({ ...e, path: "concurrency.key" })));
    else if (value === undefined || value === null || value === "")
      problems.push({
        path: "concurrency.key",
        message: "The key's expression selected nothing in this payload.",
      });
    else
      concurrency = {
        key: (typeof value === "string" ? value : JSON.stringify(value)).slice(0, 200),
        policy: t.concurrency.policy,
      };
  }
  if (problems.length) return { errors: problems };
  return { inputs: { ...t.inputs, ...mapped.inputs }, concurrency };
}

// Credentials the sender sent never reach a mapping (and so never a run's inputs).
const SECRET_HEADERS = new Set(["authorization", "cookie", "x-webhook-secret"]);

function readableHeaders(headers: Record<string, string>) {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !SECRET_HEADERS.has(name)));
}
