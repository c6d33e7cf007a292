import type { Db } from "@/lib/db/types";
import { observeChange } from "@/lib/metrics/observe";
import { assertTransition } from "@/lib/run-model/states";
import type { ExecutionRow } from "@/lib/run-model/types";
import {
  appliedEvents,
  JSON_COLUMNS,
  LeaseLostError,
  mutateExecution,
  WRITABLE,
} from "./execution-store";
import { asStored } from "./stored-form";
import { type Decide, isPlain, type Projected, writeAtOnce } from "./write-at-once";

/** An execution a worker has claimed, with what it runs under: the lease and the stop. */
export type ClaimedRun = {
  db: Db;
  /** The row as the claim that gave this worker its lease returned it. */
  claimed: ExecutionRow;
  workerId: string;
  signal: AbortSignal;
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
    if (batch.every(isPlain) && (await writeAtOnce(db, leaseOwner, stored, batch))) {
      stored = batch.at(-1)?.after ?? stored;
      for (const p of batch) observeChange(p.before, p.after, p.events);
      return;
    }
    stored = await writeLocked(db, row.id, leaseOwner, stored, batch);
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

/** The batch decided again, change by change, on the locked row as it now is. */
function writeLocked(
  db: Db,
  id: string,
  leaseOwner: string,
  stored: ExecutionRow,
  batch: Projected[],
) {
  return db.tx(async (q) => {
    let now = stored;
    for (const p of batch) {
      const res = await mutateExecution(q, { id, leaseOwner, at: p.at }, p.decide);
      if (!res) throw new LeaseLostError("deleted");
      now = res.row;
    }
    return now;
  });
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
  const applied = appliedEvents(events, before.last_seq, at.toISOString());
  const changed = Object.fromEntries(
    WRITABLE.filter((column) => column in patch).map((column) => {
      const value = patch[column];
      return [column, (JSON_COLUMNS.has(column) ? asStored(value) : value) ?? null];
    }),
  );
  const after: ExecutionRow = Object.assign({ ...before }, changed, {
    last_seq: before.last_seq + applied.length,
    version: before.version + 1,
    updated_at: at,
  });
  return { decide, at, before, change, events: applied, after };
}
