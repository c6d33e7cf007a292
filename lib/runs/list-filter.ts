import type { Principal } from "@/lib/auth/principal";
import { errors } from "@/lib/errors";
import type { ListQuery } from "./list-query";

/** How much of a run's inputs (as JSON text) and error `q` searches. */
const SEARCHED_CHARS = 4_096;

/** WHERE clauses with `?` for each value, numbered as they are added ($1, $2…). */
export function conditions(params: unknown[] = []) {
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
