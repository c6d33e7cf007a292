import { z } from "zod";
import type { ExecutionEvent } from "@/lib/contract/status";
import { jsonObject, num, time } from "@/lib/db/columns";
import type { Queryable } from "@/lib/db/types";

// The timeline's page: `data` as written (an event's data is never re-read in depth here).
const EventRow = z.object({
  seq: num,
  type: z.string(),
  task_id: z.string().nullable(),
  attempt: num.nullable(),
  data: jsonObject<ExecutionEvent["data"]>(),
  created_at: time,
});

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
  const { rows } = await q.query(
    `SELECT seq, type, task_id, attempt, data, created_at FROM execution_events
      WHERE execution_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [id, after, limit + 1],
    EventRow,
  );
  const events = rows
    .slice(0, limit)
    .map((e) => ({ ...e, created_at: new Date(e.created_at).toISOString() }));
  return { events, last_seq: events.at(-1)?.seq ?? after, has_more: rows.length > limit };
}
