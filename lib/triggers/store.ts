import crypto from "node:crypto";
import { z } from "zod";
import {
  ownerOf,
  ownerScope,
  type Principal,
  principalName,
  reachOf,
  type OwnerScope as Scope,
} from "@/lib/auth/principal";
import { seal } from "@/lib/config/encryption";
import { publicUrl } from "@/lib/config/public-url";
import type { Concurrency } from "@/lib/contract/crew";
import type { Trigger, TriggerCreate, TriggerEvent, TriggerPatch } from "@/lib/contract/triggers";
import type { CrewDef } from "@/lib/crew/schema";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { jsonArray, jsonObject, num, time } from "@/lib/db/columns";
import { crewOwned } from "@/lib/db/crew-owned";
import { returnedRow } from "@/lib/db/returned-row";
import type { Db, Queryable } from "@/lib/db/types";
import { errors, type FieldError } from "@/lib/errors";
import { checkMapping } from "./payload-mapping";
import { newSecret } from "./signatures";

/** Triggers one crew may have. */
const MAX_TRIGGERS_PER_CREW = 50;

export const TriggerRow = z.object({
  id: z.string(),
  crew: z.string(),
  name: z.string(),
  signature: z.enum(["standard", "github", "shared"]),
  secret_enc: z.string(),
  mapping: jsonObject<Record<string, string>>(),
  inputs: jsonObject<Record<string, unknown>>(),
  concurrency: jsonObject<Concurrency>().nullable(),
  paused: z.boolean(),
  owner_user_id: z.string().nullable(),
  /** Whose runs its concurrency key reaches: that of whoever last saved it (null: the crew's). */
  concurrency_owner: z.string().nullable(),
  created_by: z.string(),
  created_at: time,
  updated_at: time,
});
export type TriggerRow = z.infer<typeof TriggerRow>;

const triggers = crewOwned("triggers", TriggerRow, "trigger");
/** The id as a uuid, or the 404 of a trigger that is not there. */
export const uuidOr404 = triggers.uuidOr404;

const EventRow = z.object({
  id: z.string(),
  trigger_id: z.string(),
  delivery_id: z.string().nullable(),
  received_at: time,
  outcome: z.enum(["started", "duplicate", "unauthorized", "invalid", "limited", "refused"]),
  status_code: num,
  detail: z.string().nullable(),
  errors: jsonArray<FieldError>().nullable(),
  execution_id: z.string().nullable(),
});

const eventView = (e: z.infer<typeof EventRow>): TriggerEvent => ({
  id: e.id,
  received_at: e.received_at.toISOString(),
  delivery_id: e.delivery_id,
  outcome: e.outcome,
  status_code: e.status_code,
  detail: e.detail,
  errors: e.errors,
  execution_id: e.execution_id,
});

/** The path a sender posts to (the whole URL when PUBLIC_URL says where this server is). */
const deliveryUrl = (id: string) => `${publicUrl()}/api/triggers/${id}`;

function view(row: TriggerRow, last: z.infer<typeof EventRow> | undefined): Trigger {
  return {
    id: row.id,
    crew: row.crew,
    name: row.name,
    signature: row.signature,
    url: deliveryUrl(row.id),
    mapping: row.mapping,
    inputs: row.inputs,
    concurrency: row.concurrency,
    paused: row.paused,
    last_event: last ? eventView(last) : null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The mapping's expressions and the key's: a 422 naming each one that does not parse. */
function checkExpressions(
  crew: CrewDef,
  mapping: Record<string, string>,
  concurrency: Concurrency | null,
) {
  const problems = [
    ...checkMapping(mapping),
    ...(concurrency
      ? checkMapping({ key: concurrency.key }).map((p) => ({ ...p, path: "concurrency.key" }))
      : []),
  ];
  const names = inputSpecsOf(crew).map((s) => s.name);
  const known = new Set(names);
  for (const name of Object.keys(mapping))
    if (!known.has(name) && !problems.some((p) => p.path === `mapping.${name}`))
      problems.push({
        path: `mapping.${name}`,
        message: `The crew has no input '${name}' (it has: ${names.join(", ") || "none"}).`,
      });
  if (problems.length)
    throw errors.unprocessable(problems.map((p) => `${p.path}: ${p.message}`).join(" "), {
      errors: problems,
    });
}

export async function createTrigger(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  body: TriggerCreate,
): Promise<Trigger & { secret: string }> {
  checkExpressions(crew, body.mapping, body.concurrency);
  const id = crypto.randomUUID();
  const secret = newSecret(body.signature);
  const row = await db.tx(async (q) => {
    await triggers.makeRoom(q, crew.slug, MAX_TRIGGERS_PER_CREW);
    const { rows } = await q.query(
      `INSERT INTO triggers (id, crew, name, signature, secret_enc, mapping, inputs, concurrency,
                             paused, owner_user_id, created_by, concurrency_owner)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10, $11, $12) RETURNING *`,
      [
        id,
        crew.slug,
        body.name,
        body.signature,
        seal(secret),
        JSON.stringify(body.mapping),
        JSON.stringify(body.inputs),
        body.concurrency ? JSON.stringify(body.concurrency) : null,
        body.paused,
        ownerOf(principal),
        principalName(principal),
        reachOf(principal),
      ],
      TriggerRow,
    );
    return returnedRow(rows);
  });
  return { ...view(row, undefined), secret };
}

export async function updateTrigger(
  db: Db,
  crew: CrewDef,
  principal: Principal,
  id: string,
  patch: TriggerPatch,
) {
  const row = await db.tx(async (q) => {
    const before = await triggers.one(q, ownerScope(crew.slug, principal), id, true);
    const next = { ...before, ...patch };
    checkExpressions(crew, next.mapping, next.concurrency);
    const { rows } = await q.query(
      `UPDATE triggers SET name = $3, mapping = $4::jsonb, inputs = $5::jsonb, concurrency = $6::jsonb,
              paused = $7, concurrency_owner = $8, updated_at = now()
        WHERE crew = $1 AND id = $2 RETURNING *`,
      [
        crew.slug,
        id,
        next.name,
        JSON.stringify(next.mapping),
        JSON.stringify(next.inputs),
        next.concurrency ? JSON.stringify(next.concurrency) : null,
        next.paused,
        // A person's token saving it makes its key theirs: it cannot reach others' runs.
        reachOf(principal),
      ],
      TriggerRow,
    );
    return returnedRow(rows);
  });
  return view(row, await lastEvent(db, id));
}

/** A new secret, shown once; the old one stops working at once. */
export async function rotateSecret(db: Db, scope: Scope, id: string) {
  const row = await triggers.one(db, scope, id);
  const secret = newSecret(row.signature);
  await db.query("UPDATE triggers SET secret_enc = $2, updated_at = now() WHERE id = $1", [
    id,
    seal(secret),
  ]);
  return { ...view(row, await lastEvent(db, id)), secret };
}

export const deleteTrigger = (db: Db, scope: Scope, id: string) => triggers.remove(db, scope, id);

export async function getTrigger(db: Db, scope: Scope, id: string) {
  return view(await triggers.one(db, scope, id), await lastEvent(db, id));
}

export async function listTriggers(db: Db, scope: Scope) {
  const rows = await triggers.all(db, scope);
  const { rows: lasts } = await db.query(
    // One event per trigger, read from trigger_events_recent: never the whole log.
    `SELECT e.* FROM triggers t CROSS JOIN LATERAL (
       SELECT * FROM trigger_events WHERE trigger_id = t.id ORDER BY received_at DESC LIMIT 1
     ) e
      WHERE t.crew = $1 AND ($2::uuid IS NULL OR t.owner_user_id = $2::uuid)`,
    [scope.crew, scope.owner],
    EventRow,
  );
  const last = new Map(lasts.map((e) => [e.trigger_id, e]));
  return rows.map((r) => view(r, last.get(r.id)));
}

/** How long a delivery's entry in the log (and so its delivery id's memory) is kept. */
export const TRIGGER_EVENTS_DAYS = 30;

/**
 * Forgets this trigger's deliveries older than TRIGGER_EVENTS_DAYS, a batch at a time (a delivery
 * adds one entry and removes up to a thousand): the log stays bounded without a sweep.
 */
export async function pruneEvents(q: Queryable, triggerId: string, now: Date) {
  await q.query(
    `DELETE FROM trigger_events WHERE id IN (
       SELECT id FROM trigger_events WHERE trigger_id = $1 AND received_at < $2 LIMIT 1000)`,
    [triggerId, new Date(now.getTime() - TRIGGER_EVENTS_DAYS * 86_400_000)],
  );
}

/** Deliveries received, newest first, with the run each started or why none. */
export async function listEvents(db: Db, scope: Scope, id: string, limit = 50) {
  await triggers.one(db, scope, id);
  const { rows } = await db.query(
    "SELECT * FROM trigger_events WHERE trigger_id = $1 ORDER BY received_at DESC, id LIMIT $2",
    [id, limit],
    EventRow,
  );
  return rows.map(eventView);
}

async function lastEvent(q: Queryable, id: string) {
  const { rows } = await q.query(
    "SELECT * FROM trigger_events WHERE trigger_id = $1 ORDER BY received_at DESC LIMIT 1",
    [id],
    EventRow,
  );
  return rows[0];
}
