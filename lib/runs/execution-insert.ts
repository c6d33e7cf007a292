import type { Piece } from "@/lib/db/group-commit";
import type { LedgerEntry } from "@/lib/ledger/entry";
import type { FirstEvent } from "@/lib/ledger/first-entries";

/** Who a run is attributed to, as its row records it. */
export type Starter = {
  ownerUserId: string | null;
  tokenId: string | null;
  via: "dashboard" | "api" | "schedule" | "trigger" | "experiment";
  /** A person's e-mail, a schedule's or trigger's name; null: the token's label (or prefix). */
  name: string | null;
  scheduleId?: string;
  triggerId?: string;
};

export type ExecutionValues = {
  id: string;
  crew: string;
  starter: Starter;
  inputs: string;
  meta: string | null;
  webhooks: string;
  definitionKey: string;
  tasks: string;
  queuedData: string;
  flow: string | null;
  origin: { id: string; kind: "rerun" | "fork" } | null;
  concurrencyKey: string | null;
  /** Whose runs the key reaches (lib/runs/concurrency.ts); null: every run of the crew. */
  concurrencyOwner: string | null;
  firstEvents: FirstEvent[];
  ledger: LedgerEntry[];
};

/** Each value as its statement parameter, in the order they were always numbered. */
function parameters(v: ExecutionValues, p: (value: unknown) => string) {
  return {
    id: p(v.id),
    crew: p(v.crew),
    owner: p(v.starter.ownerUserId),
    token: p(v.starter.tokenId),
    inputs: p(v.inputs),
    meta: p(v.meta),
    webhooks: p(v.webhooks),
    definition: p(v.definitionKey),
    tasks: p(v.tasks),
    via: p(v.starter.via),
    name: p(v.starter.name),
    queued: p(v.queuedData),
    flow: p(v.flow),
    originId: p(v.origin?.id ?? null),
    originKind: p(v.origin?.kind ?? null),
    lastSeq: p(1 + v.firstEvents.length),
    firsts: p(JSON.stringify(v.firstEvents)),
    ledger: p(JSON.stringify(v.ledger)),
    key: p(v.concurrencyKey),
    schedule: p(v.starter.scheduleId ?? null),
    trigger: p(v.starter.triggerId ?? null),
    keyOwner: p(v.concurrencyOwner),
  };
}
type Params = ReturnType<typeof parameters>;

// created_at is the moment of the insert, not of its transaction: runs a schedule starts in one
// transaction keep the order they were due in (the order a concurrency key runs them in).
const executionCte = (tag: string, x: Params) =>
  `${tag}execution AS (
           INSERT INTO executions (id, crew, status, owner_user_id, token_id, inputs, meta, webhooks,
                                   crew_def, tasks, last_seq, started_via, started_by_name, flow,
                                   origin_id, origin_kind, concurrency_key, schedule_id, trigger_id, concurrency_owner,
                                   created_at)
           VALUES (${x.id}::uuid, ${x.crew}, 'queued', ${x.owner}::uuid, ${x.token}::uuid, ${x.inputs}::jsonb, ${x.meta}::jsonb, ${x.webhooks}::jsonb,
                   ${x.definition}, ${x.tasks}::jsonb, ${x.lastSeq}::int, ${x.via},
                   COALESCE(${x.name}, (SELECT COALESCE(label, display_prefix) FROM api_tokens WHERE id = ${x.token}::uuid), 'CREW_TOKEN'),
                   ${x.flow}::jsonb, ${x.originId}::uuid, ${x.originKind}, ${x.key}, ${x.schedule}::uuid, ${x.trigger}::uuid,
                   ${x.keyOwner}::uuid, clock_timestamp())
           RETURNING id)`;

/** Its queued event, then a fork's inherited ones. */
const eventCtes = (tag: string, x: Params) => [
  `${tag}queued AS (
           INSERT INTO execution_events (execution_id, seq, type, data)
           SELECT id, 1, 'execution_queued', ${x.queued}::jsonb FROM ${tag}execution
           RETURNING execution_id)`,
  `${tag}firsts AS (
           INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
           SELECT x.id, e.seq, e.type, e.task_id, e.attempt, e.data, e.created_at
             FROM ${tag}execution x,
                  jsonb_to_recordset(${x.firsts}::jsonb) AS e(seq int, type text, task_id text,
                                                       attempt int, data jsonb, created_at timestamptz)
           RETURNING execution_id)`,
];

const ledgerCte = (tag: string, x: Params) =>
  `${tag}ledger AS (
           INSERT INTO review_ledger (execution_id, position, event_seq, at, actor, action, task_id,
                                      attempt, output_sha256, decision, effect, prev_hash, hash)
           SELECT x.id, l.position, l.event_seq, l.at, l.actor, l.action, l.task_id, l.attempt,
                  l.output_sha256, l.decision, l.effect, l.prev_hash, l.hash
             FROM ${tag}execution x,
                  jsonb_to_recordset(${x.ledger}::jsonb) AS l(position int, event_seq int, at timestamptz,
                    actor text, action text, task_id text, attempt int, output_sha256 text,
                    decision jsonb, effect text, prev_hash text, hash text)
           RETURNING execution_id)`;

/**
 * The statement that creates a run: the execution, its first event (and a fork's inherited ones
 * with their ledger entries), and the wake-up of idle workers in any process (a NOTIFY, delivered
 * only if this commits). Written with other kickoffs (lib/db/group-commit.ts) or alone in a
 * transaction that checks something first (a concurrency key, a schedule's claim).
 */
export function executionPiece(v: ExecutionValues): Piece {
  return (p, tag) => {
    const x = parameters(v, p);
    return {
      ctes: [executionCte(tag, x), ...eventCtes(tag, x), ledgerCte(tag, x)],
      reads: [],
      applied: `EXISTS (SELECT 1 FROM ${tag}execution)`,
      notify: [{ channel: "crewdeck_work", payload: v.id }],
    };
  };
}
