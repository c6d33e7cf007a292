import { isConnectionError } from "@/lib/db/connection-errors";
import type { Db } from "@/lib/db/types";
import { type Change, LeaseLostError, mutateExecution } from "@/lib/runs/execution-store";
import type { ExecutionRow } from "@/lib/runs/types";
import { failure, runTask } from "./run-task";

/**
 * Runs a claimed execution from wherever it stands: tasks already completed are never run again;
 * a task left `running` by a crashed worker runs again as its next attempt.
 */
export async function runExecution({
  db,
  id,
  workerId,
  signal,
}: {
  db: Db;
  id: string;
  workerId: string;
  signal: AbortSignal;
}) {
  const change = async (decide: (row: ExecutionRow) => Change) => {
    const res = await db.tx((q) => mutateExecution(q, { id, leaseOwner: workerId }, decide));
    if (!res) throw new LeaseLostError("deleted");
    return res.row;
  };

  try {
    let row = await change((r) => ({
      patch: r.status === "queued" ? { status: "running", started_at: new Date() } : {},
      events: [
        {
          type: claimEvent(r),
          data: { worker: workerId },
        },
      ],
    }));

    for (;;) {
      const index = row.tasks.findIndex((t) => t.status !== "completed");
      const taskState = row.tasks[index];
      const task = row.crew_snapshot.tasks[index];
      if (!taskState || !task) return; // nothing left (completed by the last task's transaction)
      row = await runTask({ db, row, task, index, change, signal });
      if (row.status !== "running") return;
    }
  } catch (err) {
    if (err instanceof LeaseLostError || signal.aborted) return; // stopped, or another worker took over
    // The database went away mid-run: not the run's fault. Its lease runs out and a worker (this
    // one, once the database is back) resumes it from its last completed task.
    if (isConnectionError(err)) return;
    console.error(`[crewdeck] execution ${id} failed in the engine:`, err);
    await change((r) =>
      failure(r, null, "The engine failed unexpectedly; see the server log."),
    ).catch(() => {});
  }
}

// Started fresh, picked up after a review, or taken over from a worker that died mid-task.
function claimEvent(r: ExecutionRow) {
  if (r.status === "queued") return "execution_started";
  return r.tasks.some((t) => t.status === "running") ? "execution_recovered" : "execution_resumed";
}
