import { z } from "zod";
import { errors } from "@/lib/errors";
import { conditions } from "./list-filter";

// A page boundary: the (created_at, id) of the row at the edge, and which way to read from it.
const CursorSchema = z.object({
  dir: z.enum(["older", "newer"]),
  at: z.string().max(64),
  id: z.uuid(),
});
export type Cursor = z.infer<typeof CursorSchema>;

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

export function decodeCursor(raw: string): Cursor {
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

/** The runs and the people who started them, as the page and its count both read them. */
export const FROM = "FROM executions e LEFT JOIN users u ON u.id = e.owner_user_id";

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
