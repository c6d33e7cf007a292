import { crewApi } from "@/lib/api/client";
import type { RunRow } from "./model";

// The bulk actions, made the way any API client would make them.

/**
 * Starts the run again with the inputs and meta tags it had, as its re-run (linked to it); every
 * agent on `model` when given.
 */
export async function rerun(run: RunRow, model?: string): Promise<string> {
  const body = model ? { models: { "*": model } } : {};
  return (await crewApi(run.crew).rerun(run.id, body)).kickoff_id;
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
