import { z } from "zod";
import type { Queryable } from "@/lib/db/types";
import { appendLedger } from "@/lib/ledger/append";
import { observeChange } from "@/lib/metrics/observe";
import { enqueueNotifications } from "@/lib/notify/enqueue";
import { assertTransition, TERMINAL } from "@/lib/run-model/states";
import type { AppliedEvent, ExecutionRow, NewEvent } from "@/lib/run-model/types";
import { traceChange } from "@/lib/telemetry/trace-execution";
import { enqueueWebhooks } from "@/lib/webhooks/enqueue";
import { withCrews } from "./crew-definitions";
import { StoredExecutionRow } from "./execution-row";

// Columns a state change may write; JSON ones are serialised explicitly so arrays stay JSON.
export const JSON_COLUMNS: ReadonlySet<string> = new Set([
  "remote",
  "tasks",
  "pending_human_input",
  "open_reviews",
  "last_step",
  "token_usage",
  "webhooks",
  "flow",
]);
export const WRITABLE = [
  "status",
  "tasks",
  "current_task",
  "pending_human_input",
  "last_step",
  "result",
  "error",
  "token_usage",
  "webhooks",
  "lease_owner",
  "lease_expires_at",
  "started_at",
  "finished_at",
  "remote",
  "next_poll_at",
  "stopped_by",
  "stopped_at",
  "review_wait_seconds",
  "open_reviews",
  "review_due_at",
  "flow",
] as const;
export type ExecutionPatch = Partial<
  Pick<
    ExecutionRow,
    Exclude<
      (typeof WRITABLE)[number],
      "lease_expires_at" | "next_poll_at" | "stopped_at" | "review_due_at"
    >
  >
> & {
  review_due_at?: Date | null;
  lease_expires_at?: Date | null;
  next_poll_at?: Date | null;
  stopped_at?: Date | null;
};

/** The worker no longer owns the execution: its lease ran out, or the run was stopped. */
export class LeaseLostError extends Error {
  constructor(readonly status: string) {
    super(`lease lost (execution is ${status})`);
  }
}

export type Change = {
  patch?: ExecutionPatch;
  events?: NewEvent[];
  /**
   * Whose webhook URLs this change's events go to: by default those in force after it (a resume
   * subscribes its URLs, then its events follow); "before" for a pause, whose review request
   * still reaches the subscription that the pause ends.
   */
  webhooksFor?: "before" | "after";
  /** Task outputs kept as the run's files (`output_file`), written with this change. */
  artifacts?: NewArtifact[];
};
export type NewArtifact = {
  task_id: string;
  name: string;
  content_type: string;
  body: string;
  bytes: number;
};

/** The row locked for the change; refused when `leaseOwner` no longer holds its lease. */
async function lockedRow(q: Queryable, id: string, leaseOwner: string | undefined) {
  const { rows } = await q.query(
    "SELECT * FROM executions WHERE id = $1 FOR UPDATE",
    [id],
    StoredExecutionRow,
  );
  const row = (await withCrews(q, rows))[0];
  if (row && leaseOwner !== undefined && row.lease_owner !== leaseOwner)
    throw new LeaseLostError(row.status);
  return row;
}

/** The events as written: numbered on from the row's last, stamped `now`, their data never absent. */
export const appliedEvents = (events: NewEvent[], lastSeq: number, now: string): AppliedEvent[] =>
  events.map((e, i) => ({
    seq: lastSeq + i + 1,
    type: e.type,
    task_id: e.task_id ?? null,
    attempt: e.attempt ?? null,
    data: e.data ?? {},
    created_at: now,
  }));

/**
 * The one statement that writes the patch, the events and the NOTIFY that makes every process
 * drop its cached copy (for /status) when this commits. (A SELECT in a WITH runs only when
 * referenced, hence the join with `notified`.)
 */
export function changeStatement(
  id: string,
  patch: ExecutionPatch,
  applied: AppliedEvent[],
  keys: (string | null)[],
) {
  const sets: string[] = ["updated_at = now()", "version = version + 1"];
  const params: unknown[] = [id];
  for (const column of WRITABLE) {
    if (!(column in patch)) continue;
    const value = patch[column];
    params.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}${JSON_COLUMNS.has(column) ? "::jsonb" : ""}`);
  }
  const last = applied.at(-1);
  if (last) {
    params.push(last.seq);
    sets.push(`last_seq = $${params.length}`);
  }
  const eventValues = applied.map((e, i) => {
    params.push(e.seq, e.type, e.task_id, e.attempt, JSON.stringify(e.data), e.created_at, keys[i]);
    const n = params.length;
    return `($1, $${n - 6}, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}::jsonb, $${n - 1}, $${n})`;
  });
  const insertEvents = eventValues.length
    ? `, inserted AS (INSERT INTO execution_events (execution_id, seq, type, task_id, attempt, data, created_at, source_key)
                      VALUES ${eventValues.join(", ")})`
    : "";
  return {
    sql: `WITH notified AS (SELECT pg_notify('crewdeck_exec', $1::uuid::text))${insertEvents}
     UPDATE executions SET ${sets.join(", ")} FROM notified WHERE id = $1 RETURNING executions.*`,
    params,
  };
}

/**
 * A later output under the same name replaces the earlier one, as a file written twice would;
 * its size is counted as stored (a NUL is stored as "␀", 3 bytes: lib/db/storable-text.ts).
 */
async function writeArtifacts(q: Queryable, id: string, artifacts: NewArtifact[]) {
  for (const a of artifacts) {
    await q.query(
      `INSERT INTO execution_artifacts (execution_id, name, task_id, content_type, body, bytes)
       VALUES ($1, $2, $3, $4, $5::text, octet_length($5::text))
       ON CONFLICT (execution_id, name) DO UPDATE SET task_id = EXCLUDED.task_id,
         content_type = EXCLUDED.content_type, body = EXCLUDED.body, bytes = EXCLUDED.bytes,
         created_at = now()`,
      [id, a.name, a.task_id, a.content_type, a.body],
    );
  }
}

type Statuses = Pick<ExecutionRow, "status">;

/**
 * Who else a change is news for: a run with a concurrency key that ends lets the next one with
 * it go (work); an experiment's run that ends is scored, and its slot given to the next cell, at
 * once; a nested run's flow shows its reviews and waits for it to end (parent).
 */
export function wakes(
  before: Statuses,
  after: Pick<ExecutionRow, "status" | "concurrency_key" | "meta" | "parent_id">,
) {
  const ended = TERMINAL.has(after.status) && !TERMINAL.has(before.status);
  const experiment = after.meta?.experiment;
  return {
    work: Boolean(after.concurrency_key) && ended,
    experiment: typeof experiment === "string" && ended ? experiment : null,
    parent:
      after.parent_id && after.status !== before.status ? { id: after.parent_id, ended } : null,
  };
}

/** The notices, webhooks, ledger entries and wake-ups a written change sets off. */
async function afterChange(
  q: Queryable,
  before: ExecutionRow,
  after: ExecutionRow,
  applied: AppliedEvent[],
  webhooksFor: "before" | "after",
) {
  if (applied.length) {
    await enqueueWebhooks(q, {
      row: after,
      urls: webhooksFor === "before" ? before.webhooks : after.webhooks,
      events: applied,
    });
    await appendLedger(q, after, applied);
    await enqueueNotifications(q, after, applied);
  }
  const wake = wakes(before, after);
  if (wake.work) await q.query("SELECT pg_notify('crewdeck_work', $1)", [after.id]);
  if (wake.experiment)
    await q.query("SELECT pg_notify('crewdeck_experiments', $1)", [wake.experiment]);
  if (wake.parent)
    await q.query(
      "SELECT pg_notify('crewdeck_exec', $1), CASE WHEN $2::boolean THEN pg_notify('crewdeck_work', $1) END",
      [wake.parent.id, wake.parent.ended],
    );
  observeChange(before, after, applied);
  await traceChange(q, before, after);
}

/**
 * The one way an execution changes: lock the row, decide, write the new state and its events in
 * the same transaction. Sequence numbers come from the locked row, so they have no gaps.
 * With `leaseOwner`, the change applies only while that worker still holds the lease (a stop or
 * a pause releases it).
 */
export async function mutateExecution(
  q: Queryable,
  {
    id,
    leaseOwner,
    at,
  }: {
    id: string;
    leaseOwner?: string;
    /** When the change happened, if before now (the worker's writer records first, writes later). */
    at?: Date;
  },
  decide: (row: ExecutionRow) => Change,
): Promise<{ row: ExecutionRow; events: AppliedEvent[] } | null> {
  const row = await lockedRow(q, id, leaseOwner);
  if (!row) return null;
  const { patch = {}, events: proposed = [], webhooksFor = "after", artifacts = [] } = decide(row);
  if (patch.status) assertTransition(row.status, patch.status);
  const events = await withoutKnownKeys(q, id, proposed);
  const applied = appliedEvents(events, row.last_seq, (at ?? new Date()).toISOString());
  const { sql, params } = changeStatement(
    id,
    patch,
    applied,
    events.map((e) => e.key ?? null),
  );
  const written = (await q.query(sql, params, StoredExecutionRow)).rows[0];
  if (!written) throw new Error(`execution ${id} vanished while locked`);
  // The crew a run was started with never changes.
  const after: ExecutionRow = { ...written, crew_snapshot: row.crew_snapshot };
  await writeArtifacts(q, id, artifacts);
  await afterChange(q, row, after, applied, webhooksFor);
  return { row: after, events: applied };
}

/**
 * Events that say what they are (`key`: a remote's sequence number, a task's completion…) are
 * stored once: those already in the log, or twice in the batch, are dropped. The row is locked,
 * so two receivers of the same event cannot both pass this check.
 */
export async function withoutKnownKeys(q: Queryable, id: string, events: NewEvent[]) {
  const keys = events.flatMap((e) => (e.key ? [e.key] : []));
  if (!keys.length) return events;
  const { rows } = await q.query(
    "SELECT source_key FROM execution_events WHERE execution_id = $1 AND source_key = ANY($2::text[])",
    [id, keys],
    z.object({ source_key: z.string() }),
  );
  const seen = new Set(rows.map((r) => r.source_key));
  return events.filter((e) => {
    if (!e.key) return true;
    if (seen.has(e.key)) return false;
    seen.add(e.key);
    return true;
  });
}
