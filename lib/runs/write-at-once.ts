import { commitTogether, type Piece } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { LEDGER_EVENT_TYPES } from "@/lib/ledger/describe-event";
import { mayNotify } from "@/lib/notify/enqueue";
import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";
import { endsTrace } from "@/lib/telemetry/trace-execution";
import {
  type PlainDelivery,
  plainDeliveries,
  streamsAny,
  WEBHOOK_CHANNEL,
} from "@/lib/webhooks/enqueue";
import { EXECUTION_CHANNEL } from "./execution-cache";
import { type Change, JSON_COLUMNS, type NewArtifact, WRITABLE, wakes } from "./execution-store";

// The worker's writer (./execution-writer.ts) stores the changes it decided in one statement
// when they are plain: the row, its events, its files and its webhooks, nothing more.

export type Decide = (row: ExecutionRow) => Change;

/** A change decided on the row as this worker expects it, with what it makes of that row. */
export type Projected = {
  decide: Decide;
  at: Date;
  before: ExecutionRow;
  change: Change;
  events: AppliedEvent[];
  after: ExecutionRow;
};

const urlsOf = (p: Projected) =>
  p.change.webhooksFor === "before" ? p.before.webhooks : p.after.webhooks;

/** Whether the change is its row, its events, its files and its webhooks: one statement. */
export function isPlain(p: Projected) {
  return (
    !p.change.events?.some((e) => e.key) &&
    !p.events.some((e) => LEDGER_EVENT_TYPES.has(e.type)) &&
    !mayNotify(p.after, p.events) &&
    !streamsAny(urlsOf(p), p.events) &&
    !endsTrace(p.before, p.after)
  );
}

/**
 * Writes `batch` (decided in order on `from`) in one statement — with other runs' writes that are
 * waiting (lib/db/group-commit.ts) — if the row is still `from` and the lease still ours. False
 * when it wrote nothing.
 */
export function writeAtOnce(
  db: Db,
  leaseOwner: string,
  from: ExecutionRow,
  batch: Projected[],
): Promise<boolean> {
  return commitTogether(db, (p, tag) => atOnce(leaseOwner, from, batch, p, tag));
}

type Param = (value: unknown) => string;

/** Each column as the last change that wrote it left it; the version and last_seq as the last. */
function rowSets(batch: Projected[], last: ExecutionRow, p: Param) {
  const written = new Map<string, Projected>();
  for (const b of batch) for (const c of Object.keys(b.change.patch ?? {})) written.set(c, b);
  const sets = ["updated_at = now()", `version = ${p(last.version)}`];
  for (const column of WRITABLE) {
    const by = written.get(column);
    if (!by) continue;
    // As `by.after` holds it: a column patched to undefined is stored as null.
    const value = by.change.patch?.[column] ?? null;
    sets.push(
      JSON_COLUMNS.has(column)
        ? `${column} = ${p(value === null ? null : JSON.stringify(value))}::jsonb`
        : `${column} = ${p(value)}`,
    );
  }
  if (batch.some((b) => b.events.length)) sets.push(`last_seq = ${p(last.last_seq)}`);
  return sets;
}

function eventsCte(events: AppliedEvent[], tag: string, updated: string, p: Param) {
  const values = events.map(
    (e) =>
      `(${p(e.seq)}::int, ${p(e.type)}, ${p(e.task_id)}, ${p(e.attempt)}::int, ${p(JSON.stringify(e.data))}::jsonb, ${p(e.created_at)}::timestamptz)`,
  );
  return `${tag}events AS (INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
       SELECT u.id, v.* FROM ${updated} u, (VALUES ${values.join(", ")}) AS v(seq, type, task_id, attempt, data, created_at))`;
}

/**
 * A later output under the same name replaces the earlier one, as a file written twice would.
 * Its size is counted as stored (a NUL is stored as "␀", 3 bytes: lib/db/storable-text.ts).
 */
export const lastFiles = (batch: Pick<Projected, "change">[]): NewArtifact[] => [
  ...new Map(batch.flatMap((b) => b.change.artifacts ?? []).map((a) => [a.name, a])).values(),
];

function filesCte(files: NewArtifact[], tag: string, updated: string, p: Param) {
  const values = files.map(
    (a) => `(${p(a.name)}, ${p(a.task_id)}, ${p(a.content_type)}, ${p(a.body)}::text)`,
  );
  return `${tag}files AS (INSERT INTO execution_artifacts (execution_id, name, task_id, content_type, body, bytes)
       SELECT u.id, a.name, a.task_id, a.content_type, a.body, octet_length(a.body)
         FROM ${updated} u, (VALUES ${values.join(", ")}) AS a(name, task_id, content_type, body)
       ON CONFLICT (execution_id, name) DO UPDATE SET task_id = EXCLUDED.task_id,
         content_type = EXCLUDED.content_type, body = EXCLUDED.body, bytes = EXCLUDED.bytes,
         created_at = now())`;
}

/**
 * The webhooks each change owes (lib/webhooks/enqueue.ts), to the URLs in force for it,
 * numbered (position) in their events' order: a join is free to return rows in any order.
 */
function hooksCtes(hooks: PlainDelivery[], tag: string, updated: string, p: Param) {
  const values = hooks.map(
    (h) =>
      `(${p(h.id)}::uuid, ${p(h.seq)}::int, ${p(h.kind)}, ${p(h.url)}, ${p(h.payload)}::jsonb)`,
  );
  return [
    `${tag}hooks AS (INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
         SELECT v.id, u.id, v.event_seq, v.kind, v.url, v.payload
           FROM ${updated} u, (VALUES ${values.join(", ")}) AS v(id, event_seq, kind, url, payload)
          WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = v.url)
          ORDER BY v.event_seq RETURNING 1)`,
    `${tag}hooks_notified AS (SELECT pg_notify('${WEBHOOK_CHANNEL}', '') FROM (SELECT 1 FROM ${tag}hooks LIMIT 1) h)`,
  ];
}

/**
 * Who hears of the write once it commits: every process's cache of the run; a nested run's
 * flow, which shows its reviews (and waits for it to end); its experiment when it ends.
 */
export function atOnceNotices(
  from: Pick<ExecutionRow, "id" | "status">,
  last: Pick<ExecutionRow, "status" | "concurrency_key" | "meta" | "parent_id">,
) {
  const wake = wakes(from, last);
  return [
    { channel: EXECUTION_CHANNEL, payload: from.id },
    ...(wake.parent ? [{ channel: EXECUTION_CHANNEL, payload: wake.parent.id }] : []),
    ...(wake.parent?.ended ? [{ channel: "crewdeck_work", payload: wake.parent.id }] : []),
    ...(wake.experiment ? [{ channel: "crewdeck_experiments", payload: wake.experiment }] : []),
  ];
}

/** The CTEs of one run's write: its row, its events, files and webhooks, all named from `tag`. */
function atOnce(
  leaseOwner: string,
  from: ExecutionRow,
  batch: Projected[],
  p: Param,
  tag: string,
): ReturnType<Piece> {
  const last = batch.at(-1)?.after ?? from;
  const updated = `${tag}updated`;
  const sets = rowSets(batch, last, p);
  const ctes = [
    `${updated} AS (UPDATE executions SET ${sets.join(", ")}
       WHERE id = ${p(from.id)} AND lease_owner = ${p(leaseOwner)} AND version = ${p(from.version)} RETURNING id, updated_at)`,
  ];
  const events = batch.flatMap((b) => b.events);
  if (events.length) ctes.push(eventsCte(events, tag, updated, p));
  const files = lastFiles(batch);
  if (files.length) ctes.push(filesCte(files, tag, updated, p));
  const hooks = batch.flatMap((b) => plainDeliveries(b.after, urlsOf(b), b.events));
  const reads: string[] = [];
  if (hooks.length) {
    ctes.push(...hooksCtes(hooks, tag, updated, p));
    reads.push(`(SELECT count(*) FROM ${tag}hooks_notified)`);
  }
  return {
    ctes,
    reads,
    applied: `EXISTS (SELECT 1 FROM ${updated})`,
    notify: atOnceNotices(from, last),
  };
}
