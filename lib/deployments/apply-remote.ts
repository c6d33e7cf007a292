import { z } from "zod";
import { jsonObject, num, time } from "@/lib/db/columns";
import type { Db, Queryable } from "@/lib/db/types";
import { TERMINAL } from "@/lib/run-model/states";
import type { NewEvent, RemoteState } from "@/lib/run-model/types";
import { type ExecutionPatch, mutateExecution, withoutKnownKeys } from "@/lib/runs/execution-store";
import { isOneOf } from "@/lib/util/one-of";
import { mergeTasks, TASK_EVENT_TYPES, type TaskEvent, tasksFromSnapshot } from "./task-states";
import { stateFromEvents, type TaskSnapshot } from "./translate";

/**
 * Applies what the remote said: events (stored once by key) and a new state. A remote may skip
 * states we pass through (queued → completed); a finished run takes no further state.
 */
export async function applyRemote(
  db: Db,
  id: string,
  change: {
    patch?: ExecutionPatch;
    events?: NewEvent[];
    remote?: Partial<RemoteState>;
    /** Also take the state the new events imply (a stale repeat of an old one implies nothing). */
    stateFromEvents?: boolean;
    /** The tasks a /status answer listed: merged with what the log says, never taken blindly. */
    snapshot?: TaskSnapshot;
  },
) {
  return db.tx(async (q) => {
    await q.query("SELECT 1 FROM executions WHERE id = $1 FOR UPDATE", [id]);
    const fresh = await withoutKnownKeys(q, id, change.events ?? []);
    const taskEvents =
      change.snapshot || fresh.some(isTaskEvent) ? await storedTaskEvents(q, id) : undefined;
    return mutateExecution(q, { id }, (row) => {
      const patch: ExecutionPatch = {
        ...change.patch,
        ...(change.stateFromEvents ? stateFromEvents(fresh) : {}),
      };
      // The tasks as the whole log has them (whatever order its events came in), over the
      // snapshot's list — so neither a stale /status nor a late event moves a task back.
      if (taskEvents) {
        const base = change.snapshot
          ? tasksFromSnapshot(change.snapshot.tasks, change.snapshot.completed, row.tasks)
          : row.tasks;
        const now = new Date();
        const arriving = fresh.filter(isTaskEvent).map((e) => ({ ...e, created_at: now }));
        patch.tasks = mergeTasks(base, [...taskEvents, ...arriving]);
      }
      // Anything the remote reports beyond the kickoff means the run has started there.
      if (!patch.status && row.status === "queued" && fresh.length) patch.status = "running";
      if (TERMINAL.has(row.status)) {
        delete patch.status;
        delete patch.pending_human_input;
      } else if (patch.status === row.status || patch.status === "queued") delete patch.status;
      if (patch.status && row.status === "queued" && patch.status !== "running") {
        // The remote's states are not ours to police: it may go from queued straight to done.
        row.status = "running";
        patch.started_at ??= new Date();
      }
      if (change.remote) {
        const before: RemoteState = row.remote ?? {};
        patch.remote = { ...before, ...change.remote };
        // Two mirrorings may finish out of order: the log position only moves forward.
        patch.remote.last_remote_seq = Math.max(
          before.last_remote_seq ?? 0,
          change.remote.last_remote_seq ?? 0,
        );
      }
      if (patch.status && TERMINAL.has(patch.status)) patch.next_poll_at = null;
      return { patch, events: fresh };
    });
  });
}

const isTaskEvent = (e: NewEvent) => Boolean(e.task_id) && isOneOf(TASK_EVENT_TYPES, e.type);

const TaskEventRow = z.object({
  seq: num,
  type: z.string(),
  task_id: z.string(),
  attempt: num.nullable(),
  data: jsonObject<Record<string, unknown>>(),
  created_at: time,
});

async function storedTaskEvents(q: Queryable, id: string): Promise<TaskEvent[]> {
  const { rows } = await q.query(
    `SELECT seq, type, task_id, attempt, data, created_at FROM execution_events
      WHERE execution_id = $1 AND task_id IS NOT NULL AND type = ANY($2::text[]) ORDER BY seq`,
    [id, TASK_EVENT_TYPES],
    TaskEventRow,
  );
  return rows;
}
