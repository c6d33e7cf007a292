import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { RunRow, RunsPage } from "@/lib/contract/runs";
import type { TokenUsage } from "@/lib/contract/usage";
import { CountRow, jsonArray, jsonObject, num } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errors } from "@/lib/errors";
import { estimateCost, type ModelPrices } from "@/lib/run-model/pricing";
import { EXECUTION_STATUSES } from "@/lib/run-model/states";
import { startedBy } from "./status-view";

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
    .describe(
      "A kickoff id (or its start), a crew, or text in the first 4 KB of the inputs (as JSON) or of the error",
    ),
  meta: z
    .union([z.string().max(500), z.array(z.string().max(500)).max(20)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]))
    .pipe(
      z.array(
        z
          .string()
          .regex(/^[^:]+:/, "meta filters are key:value (e.g. meta=team:growth)")
          .transform((f) => {
            const i = f.indexOf(":");
            return { key: f.slice(0, i), value: f.slice(i + 1) };
          }),
      ),
    )
    .describe("key:value; repeat for several (all must match)"),
  started_by: z
    .string()
    .trim()
    .max(320)
    .optional()
    .describe("`me` (the caller) or the e-mail of the person who started it"),
  cursor: z
    .string()
    .max(300)
    .optional()
    .describe("next_cursor or prev_cursor of a previous page; omit for the newest runs"),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

// Timestamps are read as text (`::text`): the cursor holds them as PostgreSQL wrote them.
const ListRow = z.object({
  id: z.string(),
  crew: z.string(),
  status: z.enum(EXECUTION_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  inputs: jsonObject<Record<string, unknown>>(),
  meta: jsonObject<Record<string, unknown>>().nullable(),
  pending_human_input: jsonObject<{
    task_id: string;
    output: string;
    attempt: number;
    requested_at?: string;
  }>().nullable(),
  error: z.string().nullable(),
  token_usage: jsonObject<TokenUsage>().nullable(),
  review_wait_seconds: num,
  started_via: z.string().nullable(),
  started_by_name: z.string().nullable(),
  deployment_id: z.string().nullable(),
  schedule_id: z.string().nullable(),
  trigger_id: z.string().nullable(),
  duration_seconds: num.nullable(),
  usage_by_model: jsonArray<{
    model: string;
    input_tokens: number;
    output_tokens: number;
  }>().nullable(),
});
type ListRow = z.infer<typeof ListRow>;

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
/** How much of a run's inputs (as JSON text) and error `q` searches. */
const SEARCHED_CHARS = 4_096;

/** WHERE clauses with `?` for each value, numbered as they are added ($1, $2…). */
function conditions(params: unknown[] = []) {
  const where: string[] = [];
  return {
    where,
    params,
    add(sql: string, ...values: unknown[]) {
      let out = sql;
      for (const v of values) {
        params.push(v);
        out = out.replace("?", `$${params.length}`);
      }
      where.push(out);
    },
  };
}

/** The runs table's filters as SQL: what the caller may see, narrowed by the query. */
export function listFilter(query: ListQuery, principal: Principal) {
  if (query.from && query.to && query.from > query.to)
    throw errors.unprocessable(
      `from (${query.from}) is after to (${query.to}): give the earlier date as from.`,
      { errors: [{ path: "from", message: "must be on or before to" }] },
    );
  const filter = conditions();
  const { add } = filter;
  if (principal.kind === "user") add("e.owner_user_id = ?", principal.userId);
  if (query.crew) add("e.crew = ?", query.crew);
  if (query.status) add("e.status = ?", query.status);
  if (query.deployment === "local") add("e.deployment_id IS NULL");
  else if (query.deployment) add("e.crew = ?", `@${query.deployment}`);
  if (query.person) add("u.email = ?", query.person.toLowerCase());
  if (query.started_by === "me") {
    if (principal.kind === "org")
      throw errors.unprocessable(
        "started_by=me needs a person: sign in, or use a user token (an organization token is no one).",
      );
    add("e.owner_user_id = ?", principal.userId);
  } else if (query.started_by) add("u.email = ?", query.started_by.toLowerCase());
  for (const { key, value } of query.meta) add("e.meta ->> ?::text = ?::text", key, value);
  if (query.from) add("e.created_at >= ?::date", query.from);
  if (query.to) add("e.created_at < ?::date + 1", query.to);
  if (query.q) addSearch(add, query.q);
  return { where: filter.where, params: filter.params };
}

/**
 * `q`: a kickoff id's start, a crew, or text in the first 4 KB of the inputs (as JSON text) and
 * of the error: a search costs its length times that per run, whatever the inputs' size.
 */
function addSearch(add: ReturnType<typeof conditions>["add"], q: string) {
  const escaped = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const text = `e.crew ILIKE ? OR left(e.inputs::text, ${SEARCHED_CHARS}) ILIKE ?
                  OR substr(coalesce(e.error, ''), 1, ${SEARCHED_CHARS}) ILIKE ?`;
  const like = `%${escaped}%`;
  if (/^[0-9a-f-]{4,36}$/i.test(q))
    add(`(e.id::text LIKE ? OR ${text})`, `${escaped.toLowerCase()}%`, like, like, like);
  else add(`(${text})`, like, like, like);
}

const FROM = "FROM executions e LEFT JOIN users u ON u.id = e.owner_user_id";

/** One page's statement: the filter, then the keyset from the cursor, one row more than a page. */
export function pageStatement(
  filter: { where: string[]; params: unknown[] },
  cursor: Cursor | undefined,
  perPage: number,
) {
  const page = conditions([...filter.params]);
  page.where.push(...filter.where);
  const newer = cursor?.dir === "newer";
  if (cursor)
    page.add(
      `(e.created_at, e.id) ${newer ? ">" : "<"} (?::timestamptz, ?::uuid)`,
      cursor.at,
      cursor.id,
    );
  const order = newer ? "ASC" : "DESC";
  const params = [...page.params, perPage + 1];
  return {
    sql: `SELECT e.id, e.crew, e.status, e.created_at::text, e.started_at::text, e.finished_at::text,
              e.inputs, e.meta, e.pending_human_input, e.error, e.token_usage, e.review_wait_seconds,
              e.started_via, COALESCE(e.started_by_name, u.email) AS started_by_name, e.deployment_id, e.schedule_id, e.trigger_id,
              round(EXTRACT(EPOCH FROM e.finished_at - e.started_at)::numeric, 2)::float AS duration_seconds,
              (SELECT jsonb_agg(jsonb_build_object(
                        'model', t.value->'models'->>0,
                        'input_tokens', COALESCE((t.value->'token_usage'->>'input_tokens')::bigint, 0),
                        'output_tokens', COALESCE((t.value->'token_usage'->>'output_tokens')::bigint, 0)))
                 FROM jsonb_array_elements(e.tasks) t
                WHERE t.value->'models'->>0 IS NOT NULL) AS usage_by_model
         ${FROM} ${page.where.length ? `WHERE ${page.where.join(" AND ")}` : ""}
        ORDER BY e.created_at ${order}, e.id ${order}
        LIMIT $${params.length}`,
    params,
  };
}

/**
 * The page's runs, newest first, and its cursors: reading newer rows means older ones exist (we
 * came from them), and the other way round.
 */
export function pageOf<R extends { id: string; created_at: string }>(
  rows: R[],
  perPage: number,
  cursor: Cursor | undefined,
) {
  const newer = cursor?.dir === "newer";
  const more = rows.length > perPage;
  const runs = rows.slice(0, perPage);
  if (newer) runs.reverse();
  const first = runs[0];
  const last = runs.at(-1);
  const hasOlder = newer ? Boolean(cursor) : more;
  const hasNewer = newer ? more : Boolean(cursor);
  return {
    runs,
    next_cursor:
      hasOlder && last ? encodeCursor({ dir: "older", at: last.created_at, id: last.id }) : null,
    prev_cursor:
      hasNewer && first ? encodeCursor({ dir: "newer", at: first.created_at, id: first.id }) : null,
  };
}

/**
 * One page of executions, newest first, with the filters of the runs table. Pages by keyset
 * (created_at, id) rather than OFFSET, so the thousandth page costs what the first does.
 */
export async function listExecutions({
  db,
  principal,
  query,
  prices,
}: {
  db: Db;
  principal: Principal;
  query: ListQuery;
  prices: ModelPrices;
}): Promise<RunsPage> {
  const filter = listFilter(query, principal);
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const page = pageStatement(filter, cursor, query.per_page);
  const filterSql = filter.where.length ? `WHERE ${filter.where.join(" AND ")}` : "";
  const [{ rows }, { rows: counted }] = await Promise.all([
    db.query(page.sql, page.params, ListRow),
    db.query(
      `SELECT count(*)::int AS n FROM (SELECT 1 ${FROM} ${filterSql} LIMIT ${TOTAL_CAP + 1}) matches`,
      filter.params,
      CountRow,
    ),
  ]);
  const { runs, next_cursor, prev_cursor } = pageOf(rows, query.per_page, cursor);
  const total = counted[0]?.n ?? 0;
  return {
    runs: runs.map((r) => toRunRow(r, prices)),
    per_page: query.per_page,
    next_cursor,
    prev_cursor,
    total: Math.min(total, TOTAL_CAP),
    total_capped: total > TOTAL_CAP,
  };
}

function toRunRow(r: ListRow, prices: ModelPrices): RunRow {
  const cost = estimateCost(r.usage_by_model ?? [], prices);
  return {
    id: r.id,
    crew: r.crew,
    status: r.status,
    started_by: startedBy(r),
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    inputs: r.inputs ?? {},
    meta: r.meta ?? {},
    pending_human_input: r.pending_human_input,
    error: r.error,
    token_usage: {
      input_tokens: r.token_usage?.input_tokens ?? 0,
      output_tokens: r.token_usage?.output_tokens ?? 0,
      total_tokens: r.token_usage?.total_tokens ?? 0,
    },
    cost_usd: cost.usd,
    models: cost.models,
    duration_seconds: r.duration_seconds,
    review_wait_seconds: r.review_wait_seconds ?? 0,
  };
}
