import { commitTogether, type Piece } from "@/lib/db/group-commit";
import type { Db } from "@/lib/db/types";
import { LEDGER_EVENT_TYPES } from "@/lib/ledger/describe-event";
import { observeChange } from "@/lib/metrics/observe";
import { mayNotify } from "@/lib/notify/enqueue";
import { assertTransition } from "@/lib/run-model/states";
import type { AppliedEvent, ExecutionRow } from "@/lib/run-model/types";
import { endsTrace } from "@/lib/telemetry/trace-execution";
import {
  type PlainDelivery,
  plainDeliveries,
  streamsAny,
  WEBHOOK_CHANNEL,
} from "@/lib/webhooks/enqueue";
import { EXECUTION_CHANNEL } from "./execution-cache";
import {
  type Change,
  JSON_COLUMNS,
  LeaseLostError,
  mutateExecution,
  type NewArtifact,
  WRITABLE,
} from "./execution-store";

type Decide = (row: ExecutionRow) => Change;

/** A change decided on the row as this worker expects it, with what it makes of that row. */
type Projected = {
  decide: Decide;
  at: Date;
  before: ExecutionRow;
  change: Change;
  events: AppliedEvent[];
  after: ExecutionRow;
};

export type ExecutionWriter = {
  /**
   * Applies a change to the run as this worker sees it and returns the row it makes, at once; it
   * is written with the next `change`, or at the end of this turn of the event loop, whichever
   * comes first (its events keep the time they happened). For what a crash may lose without
   * harm: the steps of an attempt, which a crash makes run again anyway.
   */
  record(decide: Decide): ExecutionRow;
  /** Applies a change and writes it with everything recorded before it; resolves once stored. */
  change(decide: Decide): Promise<ExecutionRow>;
  /** Writes what is recorded; resolves with the row as stored. */
  flush(): Promise<ExecutionRow>;
};

/**
 * The writer of the worker holding an execution's lease. Each change is decided on the row as the
 * worker last wrote it, and written — with the changes recorded before it — in one statement that
 * holds only if that is still the row (its `version`) and the worker still holds the lease: one
 * round trip instead of a transaction that locks and reads the row again each time. When anyone
 * else has changed the run meanwhile (a stop, a review of a task running beside others, another
 * worker taking over), the statement writes nothing, and the same decisions are applied again on
 * the locked row as it now is (mutateExecution), as every change was before.
 *
 * Changes that need more than one statement (review decisions for the ledger, notifications, a
 * stream subscription's batches, events that must be stored once, a trace to write) always take
 * that locked path.
 */
export function executionWriter({
  db,
  row,
  leaseOwner,
}: {
  db: Db;
  row: ExecutionRow;
  leaseOwner: string;
}): ExecutionWriter {
  let stored = row; // as last written
  let pending: Projected[] = [];
  let projected = row; // with `pending` applied
  let writing: Promise<unknown> = Promise.resolve();
  let failed: unknown; // once a write fails, so does every later change: the run ends here
  let scheduled = false;

  function record(decide: Decide) {
    if (failed) throw failed;
    const p = project(projected, decide, new Date());
    pending.push(p);
    projected = p.after;
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flush().catch(() => {}); // kept in `failed`, thrown by the next change
      });
    }
    return projected;
  }

  function flush(): Promise<ExecutionRow> {
    // Takes what is recorded when its turn comes, not when called: no batch waits outside
    // `pending`, so a locked write below can decide everything after it again.
    const done = writing.then(async () => {
      if (failed) throw failed;
      const batch = pending;
      pending = [];
      if (batch.length) await write(batch);
      return stored;
    });
    writing = done.catch((err) => {
      failed ??= err;
    });
    return done;
  }

  async function write(batch: Projected[]) {
    if (batch.every(isPlain)) {
      if (await writeAtOnce(db, leaseOwner, stored, batch)) {
        stored = (batch.at(-1) as Projected).after;
        for (const p of batch) observeChange(p.before, p.after, p.events);
        return;
      }
    }
    stored = await db.tx(async (q) => {
      let now = stored;
      for (const p of batch) {
        const res = await mutateExecution(q, { id: row.id, leaseOwner, at: p.at }, p.decide);
        if (!res) throw new LeaseLostError("deleted");
        now = res.row;
      }
      return now;
    });
    // What was recorded meanwhile was decided on the row this worker expected: decide it again.
    pending = reproject(stored, pending);
    projected = pending.at(-1)?.after ?? stored;
  }

  return {
    record,
    flush,
    change(decide) {
      try {
        record(decide);
      } catch (err) {
        return Promise.reject(err);
      }
      return flush();
    },
  };
}

function reproject(base: ExecutionRow, batch: Projected[]) {
  return batch.map((p) => {
    const again = project(base, p.decide, p.at);
    base = again.after;
    return again;
  });
}

/** The row a change makes, as mutateExecution would store it (JSON columns as read back). */
function project(before: ExecutionRow, decide: Decide, at: Date): Projected {
  const change = decide(before);
  const { patch = {}, events = [] } = change;
  if (patch.status) assertTransition(before.status, patch.status);
  const created_at = at.toISOString();
  const applied = events.map(
    (e, i): AppliedEvent => ({
      seq: before.last_seq + i + 1,
      type: e.type,
      task_id: e.task_id ?? null,
      attempt: e.attempt ?? null,
      data: e.data ?? {},
      created_at,
    }),
  );
  const after = { ...before } as Record<string, unknown>;
  for (const column of WRITABLE) {
    if (!(column in patch)) continue;
    const value = patch[column as keyof typeof patch];
    after[column] = (JSON_COLUMNS.has(column) ? asStored(value) : value) ?? null;
  }
  after.last_seq = before.last_seq + applied.length;
  after.version = before.version + 1;
  after.updated_at = at;
  return { decide, at, before, change, events: applied, after: after as ExecutionRow };
}

/**
 * Objects asStored has given back, known to be in stored form. A change copies what it changes and
 * shares the rest (one task of a run's list, say), so the parts it shares need no walk again: each
 * step changes the run's tasks, and walking every task's state each time was most of the writer's
 * work. Rows are never changed in place, so an object stays in stored form once it is.
 */
const storedForm = new WeakSet<object>();

/**
 * A JSON column's value as the database gives it back — no undefined members, dates as ISO
 * strings — sharing every part that is already so (a run's outputs are not copied per step).
 */
function asStored(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (storedForm.has(value)) return value;
  const stored = storedCopy(value);
  if (typeof stored === "object" && stored !== null) storedForm.add(stored);
  return stored;
}

function storedCopy(value: object): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const stored = item === undefined ? null : asStored(item);
      if (stored === item) return;
      copy ??= [...value];
      copy[i] = stored;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) {
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    const stored = asStored(item);
    if (stored === item) continue;
    copy ??= { ...value };
    copy[key] = stored;
  }
  return copy ?? value;
}

const urlsOf = (p: Projected) =>
  p.change.webhooksFor === "before" ? p.before.webhooks : p.after.webhooks;

/** Whether the change is its row, its events, its files and its webhooks: one statement. */
function isPlain(p: Projected) {
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
function writeAtOnce(
  db: Db,
  leaseOwner: string,
  from: ExecutionRow,
  batch: Projected[],
): Promise<boolean> {
  return commitTogether(db, (p, tag) => atOnce(leaseOwner, from, batch, p, tag));
}

/** The CTEs of one run's write: its row, its events, files and webhooks, all named from `tag`. */
function atOnce(
  leaseOwner: string,
  from: ExecutionRow,
  batch: Projected[],
  p: (value: unknown) => string,
  tag: string,
): ReturnType<Piece> {
  const last = (batch.at(-1) as Projected).after;
  const updated = `${tag}updated`;

  // Each column as the last change that wrote it left it.
  const written = new Map<string, Projected>();
  for (const b of batch) for (const c of Object.keys(b.change.patch ?? {})) written.set(c, b);
  const sets = ["updated_at = now()", `version = ${p(last.version)}`];
  for (const column of WRITABLE) {
    const by = written.get(column);
    if (!by) continue;
    const value = by.after[column as keyof ExecutionRow];
    sets.push(
      JSON_COLUMNS.has(column)
        ? `${column} = ${p(value === null ? null : JSON.stringify(value))}::jsonb`
        : `${column} = ${p(value)}`,
    );
  }
  const events = batch.flatMap((b) => b.events);
  if (events.length) sets.push(`last_seq = ${p(last.last_seq)}`);

  const ctes = [
    `${updated} AS (UPDATE executions SET ${sets.join(", ")}
       WHERE id = ${p(from.id)} AND lease_owner = ${p(leaseOwner)} AND version = ${p(from.version)} RETURNING id, updated_at)`,
  ];
  const reads: string[] = [];
  if (events.length) {
    const values = events.map(
      (e) =>
        `(${p(e.seq)}::int, ${p(e.type)}, ${p(e.task_id)}, ${p(e.attempt)}::int, ${p(JSON.stringify(e.data))}::jsonb, ${p(e.created_at)}::timestamptz)`,
    );
    ctes.push(`${tag}events AS (INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at)
       SELECT u.id, v.* FROM ${updated} u, (VALUES ${values.join(", ")}) AS v(seq, type, task_id, attempt, data, created_at))`);
  }
  // A later output under the same name replaces the earlier one, as a file written twice would.
  // Its size is counted as stored (a NUL is stored as "␀", 3 bytes: lib/db/storable-text.ts).
  const files = [
    ...new Map(batch.flatMap((b) => b.change.artifacts ?? []).map((a) => [a.name, a])).values(),
  ];
  if (files.length) {
    const values = files.map(
      (a: NewArtifact) =>
        `(${p(a.name)}, ${p(a.task_id)}, ${p(a.content_type)}, ${p(a.body)}::text)`,
    );
    ctes.push(`${tag}files AS (INSERT INTO execution_artifacts (execution_id, name, task_id, content_type, body, bytes)
       SELECT u.id, a.name, a.task_id, a.content_type, a.body, octet_length(a.body)
         FROM ${updated} u, (VALUES ${values.join(", ")}) AS a(name, task_id, content_type, body)
       ON CONFLICT (execution_id, name) DO UPDATE SET task_id = EXCLUDED.task_id,
         content_type = EXCLUDED.content_type, body = EXCLUDED.body, bytes = EXCLUDED.bytes,
         created_at = now())`);
  }
  // The webhooks each change owes (lib/webhooks/enqueue.ts), to the URLs in force for it.
  const hooks: PlainDelivery[] = batch.flatMap((b) =>
    plainDeliveries(b.after, urlsOf(b), b.events),
  );
  if (hooks.length) {
    const values = hooks.map(
      (h) =>
        `(${p(h.id)}::uuid, ${p(h.seq)}::int, ${p(h.kind)}, ${p(h.url)}, ${p(h.payload)}::jsonb)`,
    );
    ctes.push(
      `${tag}hooks AS (INSERT INTO webhook_deliveries (id, execution_id, event_seq, kind, url, payload)
         SELECT v.id, u.id, v.event_seq, v.kind, v.url, v.payload
           FROM ${updated} u, (VALUES ${values.join(", ")}) AS v(id, event_seq, kind, url, payload)
          WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.url = v.url) RETURNING 1)`,
      `${tag}hooks_notified AS (SELECT pg_notify('${WEBHOOK_CHANNEL}', '') FROM (SELECT 1 FROM ${tag}hooks LIMIT 1) h)`,
    );
    reads.push(`(SELECT count(*) FROM ${tag}hooks_notified)`);
  }
  return {
    ctes,
    reads,
    applied: `EXISTS (SELECT 1 FROM ${updated})`,
    notify: [{ channel: EXECUTION_CHANNEL, payload: from.id }],
  };
}
