import type { Principal } from "@/lib/auth/principal";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import type { Db } from "@/lib/db/types";
import { followExecution } from "@/lib/events/live";
import { invalidateExecution } from "@/lib/runs/execution-cache";
import { isFinished, readRun } from "./runs";

export type RunUpdate = { run: StatusResponse; events: ExecutionEvent[] };

/**
 * Follows a run from event `after`: `onUpdate` gets each batch of new events with the run as it
 * stands after them, in order, one at a time (first an empty batch: the run as it is now).
 * Resolves with the run once it has finished, or waits on a review when `untilWaiting`; rejects
 * when `signal` aborts (the client left).
 *
 * A flow waiting on a nested run writes nothing to its own log while that run works or pauses
 * for review, so the nested run it waits on is followed too: its changes are the flow's.
 */
export function followRun(
  db: Db,
  principal: Principal,
  id: string,
  {
    after = 0,
    crew,
    signal,
    untilWaiting = false,
    onUpdate,
  }: {
    after?: number;
    /** The run's crew, when known: saves a lookup per change. */
    crew?: string;
    signal: AbortSignal;
    untilWaiting?: boolean;
    onUpdate: (update: RunUpdate) => Promise<void> | void;
  },
): Promise<StatusResponse> {
  return new Promise((resolve, reject) => {
    const unfollows: Promise<() => void>[] = [];
    const nested = new Set<string>();
    let done = false;
    let chain = Promise.resolve();
    const finish = (err: unknown, run?: StatusResponse) => {
      if (done) return;
      done = true;
      for (const stop of unfollows) stop.then((s) => s()).catch(() => {});
      signal.removeEventListener("abort", aborted);
      if (run) resolve(run);
      else reject(err);
    };
    const aborted = () => finish(signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", aborted);
    if (signal.aborted) return aborted();
    const failed = () => finish(new Error("The run's event log could not be read."));
    const follow = (runId: string, from: number, onEvents: (e: ExecutionEvent[]) => void) => {
      const stop = followExecution(db, runId, from, onEvents, failed);
      stop.catch((err) => finish(err));
      unfollows.push(stop);
    };
    // Batches are handled one after another: a protocol's events keep the log's order.
    const enqueue = (events: ExecutionEvent[]) => {
      chain = chain.then(() => handle(events)).catch((err) => finish(err));
    };
    const handle = async (events: ExecutionEvent[]) => {
      if (done) return;
      // Woken by a change: read the run itself, not the cached copy. The cache is dropped by the
      // same NOTIFY that woke us, but on a listener of its own that may hear it after us.
      invalidateExecution(id);
      const run = await readRun(db, principal, id, crew);
      await onUpdate({ run, events });
      if (isFinished(run) || (untilWaiting && run.status === "pending_human_input"))
        return finish(undefined, run);
      const waitingOn = run.flow?.current?.nested_run;
      if (waitingOn && !nested.has(waitingOn)) {
        nested.add(waitingOn);
        follow(waitingOn, 0, () => enqueue([]));
      }
    };
    follow(id, after, enqueue);
    enqueue([]);
  });
}
