import type { ExecutionEvent } from "@/lib/contract/status";
import type { Queryable } from "@/lib/db/types";

/** Events after sequence `after`, oldest first: a client resumes exactly where it stopped. */
export async function listEvents({
  q,
  id,
  after,
  limit,
}: {
  q: Queryable;
  id: string;
  after: number;
  limit: number;
}) {
  const { rows } = await q.query<ExecutionEvent & { created_at: Date | string }>(
    `SELECT seq, type, task_id, attempt, data, created_at FROM execution_events
      WHERE execution_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [id, after, limit + 1],
  );
  const events = rows
    .slice(0, limit)
    .map((e) => ({ ...e, created_at: new Date(e.created_at).toISOString() }));
  return { events, last_seq: events.at(-1)?.seq ?? after, has_more: rows.length > limit };
}
