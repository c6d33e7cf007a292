import type { Principal } from "@/lib/auth/principal";
import type { RunsPage } from "@/lib/contract/runs";
import { CountRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import type { ModelPrices } from "@/lib/run-model/pricing";
import { listFilter } from "./list-filter";
import { decodeCursor, FROM, pageOf, pageStatement } from "./list-page";
import type { ListQuery } from "./list-query";
import { ListRow, toRunRow } from "./list-row";

// The routes read the query's schema from here, where it was first written.
export { type ListQuery, ListQuerySchema } from "./list-query";

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
