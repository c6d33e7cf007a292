import { z } from "zod";
import { findCrew } from "@/lib/crew/registry";
import { type Notification, notifyCommitted } from "@/lib/db/group-commit";
import type { Db, Queryable } from "@/lib/db/types";
import { AppError, errorMessage } from "@/lib/errors";
import { createExecutionIn } from "@/lib/runs/create-execution";
import { dueTimes, nextFireTime } from "./cron";
import { ScheduleRow } from "./store";

type Outcome = "started" | "queued" | "skipped" | "missed" | "failed";
type Fire = { due: Date; outcome: Outcome; executionId: string | null; detail: string | null };

const ACTIVE = "('queued', 'running', 'pending_human_input')";

/**
 * Fires every schedule due at `now`, each in a transaction of its own that locks its row, starts
 * its runs, records each due time and moves next_due_at past `now`. Any number of workers may call
 * it at once: a row another holds is skipped (SKIP LOCKED), and once one commits the due time is
 * no longer due; a worker killed halfway commits nothing, so the next one fires it. A due time's
 * row in schedule_fires (its primary key) could not be written twice anyway. Resolves with the
 * number of runs started.
 */
export async function fireDueSchedules(
  db: Db,
  now: Date,
  log: (line: string) => void = console.error,
): Promise<number> {
  let started = 0;
  // A schedule whose firing fails (the database refused a write) is passed over until the next
  // tick, so it cannot hold back the schedules due after it.
  const failing: string[] = [];
  for (let round = 0; round < 1000; round++) {
    let current: ScheduleRow | undefined;
    let done: Awaited<ReturnType<typeof fireSchedule>> | null;
    try {
      done = await db.tx(async (q) => {
        const { rows } = await q.query(
          `SELECT * FROM schedules WHERE NOT paused AND next_due_at <= $1 AND NOT id = ANY($2::uuid[])
            ORDER BY next_due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [now, failing],
          ScheduleRow,
        );
        current = rows[0];
        return current ? fireSchedule(q, db, current, now) : null;
      });
    } catch (err) {
      if (!current) throw err;
      failing.push(current.id);
      log(`[scheduler] ${current.name}: ${errorMessage(err)} (tried again at the next tick)`);
      continue;
    }
    if (!done) break;
    notifyCommitted(db, done.notify);
    started += done.started;
    for (const f of done.fires)
      if (f.outcome === "failed")
        log(`[scheduler] ${done.name} at ${f.due.toISOString()}: ${f.detail}`);
  }
  return started;
}

async function fireSchedule(q: Queryable, db: Db, s: ScheduleRow, now: Date) {
  const from = s.next_due_at ?? now;
  const { fire, missed } = dueTimes(s.cron, s.timezone, from, now, s.catch_up);
  const fires: Fire[] = [];
  if (missed.count && missed.first && missed.last)
    fires.push({
      due: missed.first,
      outcome: "missed",
      executionId: null,
      detail: `${missed.atLeast ? "At least " : ""}${missed.count} due time${missed.count === 1 ? "" : "s"} from ${missed.first.toISOString()} to ${missed.last.toISOString()} passed while no worker was running; catch_up is ${s.catch_up}, so only the latest ${s.catch_up === 1 ? "one runs" : `${s.catch_up} run`}.`,
    });
  const notify: Notification[] = [];
  for (const due of fire) {
    const fired = await fireOnce(q, db, s, due);
    fires.push(fired.fire);
    notify.push(...fired.notify);
  }
  // The claim: every due time up to `now` is dealt with, so no worker fires them again.
  await q.query("UPDATE schedules SET next_due_at = $2 WHERE id = $1", [
    s.id,
    nextFireTime(s.cron, s.timezone, now),
  ]);
  for (const f of fires)
    await q.query(
      `INSERT INTO schedule_fires (schedule_id, due_at, outcome, execution_id, detail)
       VALUES ($1, $2, $3, $4::uuid, $5)`,
      [s.id, f.due, f.outcome, f.executionId, f.detail],
    );
  return {
    name: s.name,
    fires,
    notify,
    started: fires.filter((f) => f.executionId).length,
  };
}

/** One due time: the overlap policy, then the run (or the reason there is none). */
async function fireOnce(
  q: Queryable,
  db: Db,
  s: ScheduleRow,
  due: Date,
): Promise<{ fire: Fire; notify: Notification[] }> {
  const none = (outcome: Outcome, detail: string) => ({
    fire: { due, outcome, executionId: null, detail },
    notify: [],
  });
  const crew = findCrew(s.crew);
  if (!crew)
    return none("failed", `The crew '${s.crew}' is not loaded (removed, or its files are broken).`);
  const { rows: active } = await q.query(
    `SELECT id FROM executions WHERE schedule_id = $1 AND status IN ${ACTIVE} ORDER BY created_at LIMIT 1`,
    [s.id],
    z.object({ id: z.string() }),
  );
  const previous = active[0]?.id;
  if (previous && s.overlap === "skip")
    return none(
      "skipped",
      `Run ${previous} from an earlier due time was still going (overlap: skip).`,
    );
  try {
    const { id, notify } = await createExecutionIn(q, {
      db,
      crew,
      principal: { kind: "org", tokenId: null },
      request: {
        inputs: s.inputs,
        // Queued runs of one schedule run one after the other, in the order they were due.
        ...(s.overlap === "queue"
          ? { concurrency: { key: `schedule:${s.id}`, policy: "enqueue" as const } }
          : {}),
      },
      starter: {
        ownerUserId: s.owner_user_id,
        tokenId: null,
        via: "schedule",
        name: s.name,
        scheduleId: s.id,
      },
    });
    const waits = previous && s.overlap === "queue";
    return {
      fire: {
        due,
        outcome: waits ? "queued" : "started",
        executionId: id,
        detail: waits ? `Waits for run ${previous} to end (overlap: queue).` : null,
      },
      notify,
    };
  } catch (err) {
    // The crew changed since (an input it now requires): recorded, and the schedule goes on.
    if (err instanceof AppError && err.status < 500) return none("failed", errorMessage(err));
    throw err;
  }
}
