import { z } from "zod";
import { NoContent, request } from "@/lib/api/client/request";
import type { RunRow } from "./model";

// The list's own calls: saved views and the bulk actions. Answers are parsed with zod like every
// other client call; the shapes are the API contract's.
export const SavedViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  query: z.string(),
  created_at: z.string(),
});
export type SavedView = z.infer<typeof SavedViewSchema>;

export const viewsApi = {
  list: () => request(z.object({ views: z.array(SavedViewSchema) }), "GET", "/api/views"),
  create: (body: { name: string; query: string }) =>
    request(SavedViewSchema, "POST", "/api/views", body),
  remove: (id: string) => request(NoContent, "DELETE", `/api/views/${encodeURIComponent(id)}`),
};

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
