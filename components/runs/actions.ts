import { crewApi } from "@/lib/api/client";
import type { RunRow } from "./model";

// The bulk actions, made the way any API client would make them.

/** Starts the run again with the inputs (and meta tags) it had, read from its status. */
export async function rerun(run: RunRow): Promise<string> {
  const status = await crewApi(run.crew).status(run.id);
  const meta = Object.keys(status.meta).length ? status.meta : undefined;
  const started = await crewApi(run.crew).kickoff(status.inputs, meta);
  return started.kickoff_id;
}

export async function stopRun(run: RunRow): Promise<void> {
  await crewApi(run.crew).stop(run.id);
}

/**
 * Runs `fn` on each item, all at once; keeps what each success gave (`done`) and the error of each
 * failure.
 */
export async function settleAll<T, R>(items: T[], fn: (item: T) => Promise<R>) {
  const results = await Promise.allSettled(items.map(fn));
  const done = results.flatMap((r, i) =>
    r.status === "fulfilled" ? [{ item: items[i] as T, value: r.value }] : [],
  );
  const failed = results.flatMap((r, i) =>
    r.status === "rejected"
      ? [{ item: items[i] as T, error: r.reason instanceof Error ? r.reason.message : "failed" }]
      : [],
  );
  return { ok: done.length, done, failed };
}
