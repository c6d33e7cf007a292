import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { EXECUTION_STATUSES } from "./states";

export const ListQuerySchema = z.object({
  crew: z.string().max(200).optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
  person: z
    .string()
    .max(320)
    .optional()
    .describe("Email of the person (or token's user) who started it"),
  from: z.iso.date("from must be a date (YYYY-MM-DD)").optional(),
  to: z.iso.date("to must be a date (YYYY-MM-DD)").optional(),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe("A kickoff id (or its start), or text in the inputs"),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export type ExecutionListItem = {
  id: string;
  crew: string;
  status: string;
  started_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  inputs: Record<string, unknown>;
  pending_human_input: { task_id: string; output: string; attempt: number } | null;
  error: string | null;
};

/** One page of executions, newest first, with the filters of the runs table. */
export async function listExecutions({
  db,
  principal,
  query,
}: {
  db: Db;
  principal: Principal;
  query: ListQuery;
}) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    let out = sql;
    for (const v of values) {
      params.push(v);
      out = out.replace("?", `$${params.length}`);
    }
    where.push(out);
  };
  if (principal.kind === "user") add("e.owner_user_id = ?", principal.userId);
  if (query.crew) add("e.crew = ?", query.crew);
  if (query.status) add("e.status = ?", query.status);
  if (query.person) add("u.email = ?", query.person.toLowerCase());
  if (query.from) add("e.created_at >= ?::date", query.from);
  if (query.to) add("e.created_at < ?::date + 1", query.to);
  if (query.q) {
    const escaped = query.q.replace(/[\\%_]/g, (c) => `\\${c}`);
    if (/^[0-9a-f-]{4,36}$/i.test(query.q))
      add(
        "(e.id::text LIKE ? OR e.inputs::text ILIKE ?)",
        `${escaped.toLowerCase()}%`,
        `%${escaped}%`,
      );
    else add("e.inputs::text ILIKE ?", `%${escaped}%`);
  }
  const whereSql = where.length ? `WHERE ${where.join(" AND ")}` : "";
  params.push(query.per_page, (query.page - 1) * query.per_page);
  const { rows } = await db.query<ExecutionListItem & { total: number }>(
    `SELECT e.id, e.crew, e.status, u.email AS started_by, e.created_at::text, e.started_at::text, e.finished_at::text,
            e.inputs, e.pending_human_input, e.error, count(*) OVER ()::int AS total
       FROM executions e LEFT JOIN users u ON u.id = e.owner_user_id
       ${whereSql}
      ORDER BY e.created_at DESC
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const total = rows[0]?.total ?? 0;
  return {
    runs: rows.map(({ total: _t, ...r }) => r),
    page: query.page,
    per_page: query.per_page,
    total,
    pages: Math.max(1, Math.ceil(total / query.per_page)),
  };
}

/** The overview's figures: what needs attention, and the last 14 days by outcome and duration. */
export async function executionStats({ db, principal }: { db: Db; principal: Principal }) {
  const own = principal.kind === "user" ? "AND owner_user_id = $1" : "";
  const params = principal.kind === "user" ? [principal.userId] : [];
  const { rows: counts } = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM executions WHERE status IN ('pending_human_input', 'running', 'queued') ${own} GROUP BY status`,
    params,
  );
  const { rows: days } = await db.query<{
    day: string;
    completed: number;
    error: number;
    cancelled: number;
    other: number;
    avg_seconds: number | null;
    max_seconds: number | null;
  }>(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
            count(*) FILTER (WHERE e.status = 'completed')::int AS completed,
            count(*) FILTER (WHERE e.status = 'error')::int AS error,
            count(*) FILTER (WHERE e.status = 'cancelled')::int AS cancelled,
            count(*) FILTER (WHERE e.status NOT IN ('completed', 'error', 'cancelled'))::int AS other,
            avg(EXTRACT(EPOCH FROM e.finished_at - e.started_at)) FILTER (WHERE e.status = 'completed')::float AS avg_seconds,
            max(EXTRACT(EPOCH FROM e.finished_at - e.started_at)) FILTER (WHERE e.status = 'completed')::float AS max_seconds
       FROM generate_series(current_date - 13, current_date, interval '1 day') AS d(day)
       LEFT JOIN executions e ON e.created_at >= d.day AND e.created_at < d.day + interval '1 day' ${own}
      GROUP BY d.day ORDER BY d.day`,
    params,
  );
  const n = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  return { awaiting_review: n("pending_human_input"), running: n("running") + n("queued"), days };
}
