import crypto from "node:crypto";
import os from "node:os";
import { IdRow } from "@/lib/db/columns";
import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { runFlow } from "@/lib/flows/run-flow";
import type { ExecutionRow } from "@/lib/run-model/types";
import { createNapper, idleBackoff } from "@/lib/util/napper";
import { claimRuns } from "./claim";
import { runExecution } from "./run-execution";
import {
  CLAIMS_WORK,
  claimFailed,
  claimWorked,
  lostLeases,
  outageNapMs,
  renewalIntervalMs,
} from "./worker-rules";

export type WorkerOptions = {
  db: Db;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  log?: (msg: string) => void;
};

/** The runs this worker runs now, by execution id. */
type Active = Map<string, { controller: AbortController; done: Promise<void> }>;

/** One worker's own: its id, its runs, and what it says. */
type Self = { db: Db; id: string; active: Active; log: (msg: string) => void };

/**
 * Claims queued (or abandoned) executions with a lease, runs up to `concurrency` at once, renews
 * the leases while they run. Several workers may share one PostgreSQL: SKIP LOCKED hands each
 * execution to exactly one of them.
 */
export function startWorker({
  db,
  concurrency,
  leaseMs,
  pollMs,
  log = console.log,
}: WorkerOptions) {
  const id = `${os.hostname()}/${process.pid}/${crypto.randomBytes(3).toString("hex")}`;
  const self: Self = { db, id, active: new Map(), log };
  const napper = createNapper();
  const nudge = () => napper.wake();
  listen(self, nudge);
  const renewal = setInterval(leaseRenewal(self, leaseMs), renewalIntervalMs(leaseMs));
  renewal.unref();
  let stopping = false;
  const loop = claimLoop(self, {
    concurrency,
    leaseMs,
    pollMs,
    napper,
    stopping: () => stopping,
    launch: (claimed) => launch(self, claimed, nudge),
  });

  return {
    id,
    activeCount: () => self.active.size,
    /**
     * Stops claiming; lets what runs finish for up to `graceMs`, then aborts the rest and hands it
     * back (lease cleared) so another worker resumes it at once from its last completed task.
     */
    async stop(graceMs = 0) {
      stopping = true;
      nudge();
      await loop;
      await windDown(self, graceMs, renewal);
    },
  };
}

/** NOTIFYs from kickoff/resume (work to claim) and stop (abort now), from any process. */
function listen({ db, active, log }: Self, nudge: () => void) {
  db.listen("crewdeck_work", () => nudge()).catch((err) =>
    log(`[worker] LISTEN failed: ${errorMessage(err)}`),
  );
  db.listen("crewdeck_stop", (executionId) =>
    active.get(executionId)?.controller.abort(new Error("stopped")),
  ).catch(() => {});
}

/** Runs a claimed execution (a crew's or a flow's); its end wakes the loop to claim more. */
function launch({ db, id, active, log }: Self, claimed: ExecutionRow, nudge: () => void) {
  const controller = new AbortController();
  const executionId = claimed.id;
  const run = claimed.crew_snapshot.flow ? runFlow : runExecution;
  const done = run({ db, claimed, workerId: id, signal: controller.signal })
    .catch((err) => log(`[worker] execution ${executionId}: ${errorMessage(err)}`))
    .finally(() => {
      active.delete(executionId);
      nudge();
    });
  active.set(executionId, { controller, done });
}

/** Renew what we run; anything whose lease we no longer hold (stopped, taken over) is aborted. */
function leaseRenewal({ db, id, active, log }: Self, leaseMs: number) {
  let renewing = false;
  return async () => {
    // One renewal at a time: while the database is slow or rows are locked, renewals piling
    // up would take every pooled connection and starve the runs' own state changes.
    if (!active.size || renewing) return;
    renewing = true;
    // Only the runs active now: one claimed while this query is in flight is not in its answer
    // and must not be taken for lost; one that ended meanwhile must not be kept alive.
    const running = [...active.keys()];
    try {
      const { rows } = await db.query(
        `UPDATE executions SET lease_expires_at = now() + make_interval(secs => $2)
        WHERE lease_owner = $1 AND id = ANY($3::uuid[]) RETURNING id`,
        [id, leaseMs / 1000, running],
        IdRow,
      );
      const held = new Set(rows.map((r) => r.id));
      for (const executionId of lostLeases(running, held))
        active.get(executionId)?.controller.abort(new Error("lease lost"));
    } catch (err) {
      // The database being down is reported once by the Db itself; the leases run out
      // meanwhile and whatever another worker takes over is aborted at the next renewal.
      if (!isConnectionError(err)) log(`[worker] lease renewal failed: ${errorMessage(err)}`);
    } finally {
      renewing = false;
    }
  };
}

/** Claims work while there is room, then naps until woken or the next poll, until stopped. */
async function claimLoop(
  { db, id, active, log }: Self,
  {
    concurrency,
    leaseMs,
    pollMs,
    napper,
    stopping,
    launch,
  }: {
    concurrency: number;
    leaseMs: number;
    pollMs: number;
    napper: ReturnType<typeof createNapper>;
    stopping: () => boolean;
    launch: (claimed: ExecutionRow) => void;
  },
) {
  const naps = idleBackoff(pollMs);
  let spell = CLAIMS_WORK;
  while (!stopping()) {
    let found = false;
    try {
      while (!stopping() && active.size < concurrency) {
        const room = concurrency - active.size;
        // Never one this worker is running already: if its lease ran out while renewals were
        // late (a busy machine, a stalled event loop), it is still ours, and claiming it again
        // would run it twice side by side. The next renewal extends it; another worker taking
        // it over meanwhile makes that renewal abort ours.
        const running = [...active.keys()];
        const claimed = await claimRuns(db, { workerId: id, leaseMs, running, limit: room });
        for (const row of claimed) launch(row);
        found ||= claimed.length > 0;
        if (claimed.length < room) break;
      }
      const worked = claimWorked(spell);
      if (worked.line) log(worked.line);
      spell = worked.spell;
    } catch (err) {
      const failure = { message: errorMessage(err), connection: isConnectionError(err) };
      const failed = claimFailed(spell, failure, Date.now());
      if (failed.line) log(failed.line);
      spell = failed.spell;
    }
    // A run ending wakes the loop, as do kickoffs and resumes (NOTIFY), from any process.
    await napper.nap(spell.downSince ? outageNapMs(pollMs) : naps.after(found));
  }
}

/**
 * What runs gets up to `graceMs` to finish; the rest is aborted and handed back, and announced:
 * another worker resumes it now, not at its next poll.
 */
async function windDown({ db, id, active, log }: Self, graceMs: number, renewal: NodeJS.Timeout) {
  const finished = Promise.allSettled([...active.values()].map((r) => r.done));
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([finished, graceOver]);
  clearTimeout(timer);
  clearInterval(renewal);
  if (active.size) log(`[worker] handing back ${active.size} execution(s) still running`);
  for (const run of active.values()) run.controller.abort(new Error("worker shutting down"));
  await Promise.allSettled([...active.values()].map((r) => r.done));
  await db
    .query(
      `WITH handed AS (UPDATE executions SET lease_owner = NULL, lease_expires_at = NULL
                        WHERE lease_owner = $1 RETURNING 1)
       SELECT pg_notify('crewdeck_work', '') FROM handed LIMIT 1`,
      [id],
    )
    .catch(() => {});
}
