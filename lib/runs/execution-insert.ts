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

/**
 * The statement that creates a run: the execution, its first event (and a fork's inherited ones
 * with their ledger entries), and the wake-up of idle workers in any process (a NOTIFY, delivered
 * only if this commits). Written with other kickoffs (lib/db/group-commit.ts) or alone in a
 * transaction that checks something first (a concurrency key, a schedule's claim).
 */
export function executionPiece(v: ExecutionValues): Piece {
  const values = [
    v.id,
    v.crew,
    v.starter.ownerUserId,
    v.starter.tokenId,
    v.inputs,
    v.meta,
    v.webhooks,
    v.definitionKey,
    v.tasks,
    v.starter.via,
    v.starter.name,
    v.queuedData,
    v.flow,
    v.origin?.id ?? null,
    v.origin?.kind ?? null,
    1 + v.firstEvents.length,
    JSON.stringify(v.firstEvents),
    JSON.stringify(v.ledger),
    v.concurrencyKey,
    v.starter.scheduleId ?? null,
    v.starter.triggerId ?? null,
    v.concurrencyOwner,
  ];
  // created_at is the moment of the insert, not of its transaction: runs a schedule starts in one
  // transaction keep the order they were due in (the order a concurrency key runs them in).
  return (p, tag) => {
    const [
      v1,
      v2,
      v3,
      v4,
      v5,
      v6,
      v7,
      v8,
      v9,
      v10,
      v11,
      v12,
      v13,
      v14,
      v15,
      v16,
      v17,
      v18,
      v19,
      v20,
      v21,
      v22,
    ] = values.map(p);
    return {
      ctes: [
        `${tag}execution AS (
           INSERT INTO executions (id, crew, status, owner_user_id, token_id, inputs, meta, webhooks,
                                   crew_def, tasks, last_seq, started_via, started_by_name, flow,
                                   origin_id, origin_kind, concurrency_key, schedule_id, trigger_id, concurrency_owner,
                                   created_at)
           VALUES (${v1}::uuid, ${v2}, 'queued', ${v3}::uuid, ${v4}::uuid, ${v5}::jsonb, ${v6}::jsonb, ${v7}::jsonb,
                   ${v8}, ${v9}::jsonb, ${v16}::int, ${v10},
                   COALESCE(${v11}, (SELECT COALESCE(label, display_prefix) FROM api_tokens WHERE id = ${v4}::uuid), 'CREW_TOKEN'),
                   ${v13}::jsonb, ${v14}::uuid, ${v15}, ${v19}, ${v20}::uuid, ${v21}::uuid,
                   ${v22}::uuid, clock_timestamp())
           RETURNING id)`,
        `${tag}queued AS (
           INSERT INTO execution_events (execution_id, seq, type, data)
           SELECT id, 1, 'execution_queued', ${v12}::jsonb FROM ${tag}execution
           RETURNING execution_id)`,
        `${tag}firsts AS (
           INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
           SELECT x.id, e.seq, e.type, e.task_id, e.attempt, e.data, e.created_at
             FROM ${tag}execution x,
                  jsonb_to_recordset(${v17}::jsonb) AS e(seq int, type text, task_id text,
                                                       attempt int, data jsonb, created_at timestamptz)
           RETURNING execution_id)`,
        `${tag}ledger AS (
           INSERT INTO review_ledger (execution_id, position, event_seq, at, actor, action, task_id,
                                      attempt, output_sha256, decision, effect, prev_hash, hash)
           SELECT x.id, l.position, l.event_seq, l.at, l.actor, l.action, l.task_id, l.attempt,
                  l.output_sha256, l.decision, l.effect, l.prev_hash, l.hash
             FROM ${tag}execution x,
                  jsonb_to_recordset(${v18}::jsonb) AS l(position int, event_seq int, at timestamptz,
                    actor text, action text, task_id text, attempt int, output_sha256 text,
                    decision jsonb, effect text, prev_hash text, hash text)
           RETURNING execution_id)`,
      ],
      reads: [],
      applied: `EXISTS (SELECT 1 FROM ${tag}execution)`,
      notify: [{ channel: "crewdeck_work", payload: v.id }],
    };
  };
}
