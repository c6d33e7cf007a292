import type { Principal } from "@/lib/auth/principal";
import type { ExecutionEvent, StatusResponse } from "@/lib/contract/status";
import type { Db } from "@/lib/db/types";
import { followExecution } from "@/lib/events/live";
import { isFinished, readRun } from "./runs";

export type RunUpdate = { run: StatusResponse; events: ExecutionEvent[] };

/**
 * Follows a run from event `after`: `onUpdate` gets each batch of new events with the run as it
 * stands after them, in order, one at a time. Resolves with the run once it has finished, or
 * waits on a review when `untilWaiting`; rejects when `signal` aborts (the client left).
 */
export function followRun(
  db: Db,
  principal: Principal,
  id: string,
  {
    after = 0,
    signal,
    untilWaiting = false,
    onUpdate,
  }: {
    after?: number;
    signal: AbortSignal;
    untilWaiting?: boolean;
    onUpdate: (update: RunUpdate) => Promise<void> | void;
  },
): Promise<StatusResponse> {
  return new Promise((resolve, reject) => {
    let unfollow: (() => void) | undefined;
    let done = false;
    let chain = Promise.resolve();
    const finish = (err: unknown, run?: StatusResponse) => {
      if (done) return;
      done = true;
      unfollow?.();
      signal.removeEventListener("abort", aborted);
      if (run) resolve(run);
      else reject(err);
    };
    const aborted = () => finish(signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", aborted);
    if (signal.aborted) return aborted();
    const handle = async (events: ExecutionEvent[]) => {
      if (done) return;
      const run = await readRun(db, principal, id);
      await onUpdate({ run, events });
      if (isFinished(run) || (untilWaiting && run.status === "pending_human_input"))
        finish(undefined, run);
    };
    followExecution(
      db,
      id,
      after,
      (events) => {
        // Batches are handled one after another: a protocol's events keep the log's order.
        chain = chain.then(() => handle(events)).catch((err) => finish(err));
      },
      () => finish(new Error("The run's event log could not be read.")),
    ).then(
      (stop) => {
        unfollow = stop;
        if (done) stop();
      },
      (err) => finish(err),
    );
  });
}
