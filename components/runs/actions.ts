import { z } from "zod";
import { request } from "@/lib/api/client";
import type { RunRow } from "./model";

// The bulk actions' calls, as any client would make them; answers are parsed with zod.
const crewBase = (crew: string) => `/api/crews/${encodeURIComponent(crew)}`;
const InputValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Starts the run again with the inputs it had (read from its status, as any client would). */
export async function rerun(run: RunRow): Promise<string> {
  const status = await request(
    z.object({ inputs: z.record(z.string(), InputValue).optional() }),
    "GET",
    `${crewBase(run.crew)}/status/${run.id}`,
  );
  const inputs = status.inputs ?? (run.inputs as Record<string, z.infer<typeof InputValue>>);
  const meta = run.meta && Object.keys(run.meta).length ? run.meta : undefined;
  const started = await request(
    z.object({ kickoff_id: z.string() }),
    "POST",
    `${crewBase(run.crew)}/kickoff`,
    { inputs, meta },
  );
  return started.kickoff_id;
}

export async function stopRun(run: RunRow): Promise<void> {
  await request(z.unknown(), "POST", `${crewBase(run.crew)}/stop/${run.id}`);
}

/** Runs `fn` on each item, all at once; counts what worked and keeps the first error per item. */
export async function settleAll<T>(items: T[], fn: (item: T) => Promise<unknown>) {
  const results = await Promise.allSettled(items.map(fn));
  const failed = results.flatMap((r, i) =>
    r.status === "rejected"
      ? [{ item: items[i] as T, error: r.reason instanceof Error ? r.reason.message : "failed" }]
      : [],
  );
  return { ok: results.length - failed.length, failed };
}
