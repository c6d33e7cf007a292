import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { nextTasks } from "@/lib/run-model/next-tasks";
import type { ExecutionRow } from "@/lib/run-model/types";
import { LeaseLostError, mutateExecution } from "@/lib/runs/execution-store";
import {
  type ClaimedRun,
  type ExecutionWriter,
  executionWriter,
} from "@/lib/runs/execution-writer";
import { failure } from "@/lib/runs/run-failure";
import { tracedAttempt } from "@/lib/telemetry/trace-execution";
import { linkedSignal } from "@/lib/util/linked-signal";
import { forgetLimiters } from "./calls-per-minute";
import { runTask as runAttempt } from "./run-task";

// Each attempt is a span of the execution's trace when OpenTelemetry is on (lib/telemetry).
const runTask = tracedAttempt(runAttempt);

/**
 * Runs a claimed execution from wherever it stands: tasks already completed are never run again;
 * a task left `running` by a crashed worker runs again as its next attempt.
 */
export async function runExecution({ db, claimed, workerId, signal }: ClaimedRun) {
  const id = claimed.id;
  const writer = executionWriter({ db, row: claimed, leaseOwner: workerId });
  try {
    let row = writer.record((r) => ({
      patch: r.status === "queued" ? { status: "running", started_at: new Date() } : {},
      events: [
        {
          type: claimEvent(r),
          data: { worker: workerId },
        },
      ],
    }));

    for (;;) {
      const indexes = nextTasks(row.crew_snapshot.tasks, row.tasks);
      if (!indexes.length) return; // nothing left (completed by the last task's transaction)
      const [only, ...more] = indexes;
      row =
        only !== undefined && !more.length
          ? await runTask({ db, row, ...taskAt(row, only), writer, signal })
          : await runSideBySide({ db, row, indexes, writer, signal });
      if (row.status !== "running") return;
    }
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted) return; // stopped, or another worker took over
    // The database went away mid-run: not the run's fault. Its lease runs out and a worker (this
    // one, once the database is back) resumes it from its last completed task.
    if (isConnectionError(err)) return;
    console.error(`[crewdeck] execution ${id} failed in the engine:`, err);
    // On the locked row, not through the writer: its own failure may be why we are here.
    await db
      .tx((q) =>
        mutateExecution(q, { id, leaseOwner: workerId }, (r) =>
          failure(r, null, "The engine failed unexpectedly; see the server log."),
        ),
      )
      .catch(() => {});
  } finally {
    await writer.flush().catch(() => {}); // nothing recorded is left behind unwritten
    forgetLimiters(id);
  }
}

/**
 * A group of async tasks at once. The first one to end the run (a failure) stops the others; the
 * row is read again once all have settled, since each branch saw only its own last change.
 */
async function runSideBySide({
  db,
  row,
  indexes,
  writer,
  signal,
}: {
  db: Db;
  row: ExecutionRow;
  indexes: number[];
  writer: ExecutionWriter;
  signal: AbortSignal;
}): Promise<ExecutionRow> {
  const group = new AbortController();
  const { signal: branchSignal, unlink } = linkedSignal(signal, group.signal);
  let own: { error: unknown } | undefined;
  await Promise.allSettled(
    indexes.map(async (index) => {
      try {
        const after = await runTask({
          db,
          row,
          ...taskAt(row, index),
          writer,
          signal: branchSignal,
        });
        if (after.status !== "running") group.abort();
      } catch (err) {
        // A branch stopped because another ended the run has no error of its own.
        if (!group.signal.aborted) own ??= { error: err };
        group.abort();
      }
    }),
  );
  unlink();
  if (own) throw own.error;
  if (signal.aborted) throw signal.reason;
  // Written, and so checked against the stored row: anyone else's change since shows up here.
  return writer.change(() => ({}));
}

function taskAt(row: ExecutionRow, index: number) {
  const task = row.crew_snapshot.tasks[index];
  if (!task) throw new Error(`the crew has no task #${index}`);
  return { index, task };
}

// Started fresh, picked up after a review, or taken over from a worker that died mid-task.
function claimEvent(r: ExecutionRow) {
  if (r.status === "queued") return "execution_started";
  return r.tasks.some((t) => t.status === "running") ? "execution_recovered" : "execution_resumed";
}
