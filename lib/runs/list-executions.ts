import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { EXECUTION_STATUSES } from "./states";

export const ListQuerySchema = z.object({
  crew: z.string().max(200).optional(),
  status: z.enum(EXECUTION_STATUSES).optional(),
  deployment: z
    .string()
    .max(100)
    .optional()
    .describe("`local` for this Crewdeck's own crews, or a remote deployment's slug"),
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
  cursor: z
    .string()
    .max(300)
    .optional()
    .describe("next_cursor or prev_cursor of a previous page; omit for the newest runs"),
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

// A page boundary: the (created_at, id) of the row at the edge, and which way to read from it.
const CursorSchema = z.object({
  dir: z.enum(["older", "newer"]),
  at: z.string().max(64),
  id: z.uuid(),
});
type Cursor = z.infer<typeof CursorSchema>;

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

function decodeCursor(raw: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const cursor = CursorSchema.safeParse(parsed);
  if (!cursor.success || Number.isNaN(Date.parse(cursor.data.at)))
    throw errors.badRequest(
      "cursor is not one this API returned: pass next_cursor or prev_cursor unchanged, or omit it for the first page.",
    );
  return cursor.data;
}

// Counting every match would make each page as slow as the history is long; past this, "10,000+".
const TOTAL_CAP = 10_000;

/**
 * One page of executions, newest first, with the filters of the runs table. Pages by keyset
 * (created_at, id) rather than OFFSET, so the thousandth page costs what the first does.
 */
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
  if (query.deployment === "local") add("e.deployment_id IS NULL");
  else if (query.deployment) add("e.crew = ?", `@${query.deployment}`);
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
  const filterSql = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const filterParams = [...params];
  const from = "FROM executions e LEFT JOIN users u ON u.id = e.owner_user_id";

  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const newer = cursor?.dir === "newer";
  if (cursor)
    add(
      `(e.created_at, e.id) ${newer ? ">" : "<"} (?::timestamptz, ?::uuid)`,
      cursor.at,
      cursor.id,
    );
  const order = newer ? "ASC" : "DESC";
  params.push(query.per_page + 1);
  const [{ rows }, { rows: counted }] = await Promise.all([
    db.query<ExecutionListItem>(
      `SELECT e.id, e.crew, e.status, u.email AS started_by, e.created_at::text, e.started_at::text, e.finished_at::text,
              e.inputs, e.pending_human_input, e.error
         ${from} ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY e.created_at ${order}, e.id ${order}
        LIMIT $${params.length}`,
      params,
    ),
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 ${from} ${filterSql} LIMIT ${TOTAL_CAP + 1}) matches`,
      filterParams,
    ),
  ]);
  const more = rows.length > query.per_page;
  const runs = rows.slice(0, query.per_page);
  if (newer) runs.reverse();
  const first = runs[0];
  const last = runs.at(-1);
  // Reading newer rows means older ones exist (we came from them), and the other way round.
  const hasOlder = newer ? Boolean(cursor) : more;
  const hasNewer = newer ? more : Boolean(cursor);
  const total = counted[0]?.n ?? 0;
  return {
    runs,
    per_page: query.per_page,
    next_cursor:
      hasOlder && last ? encodeCursor({ dir: "older", at: last.created_at, id: last.id }) : null,
    prev_cursor:
      hasNewer && first ? encodeCursor({ dir: "newer", at: first.created_at, id: first.id }) : null,
    total: Math.min(total, TOTAL_CAP),
    total_capped: total > TOTAL_CAP,
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
