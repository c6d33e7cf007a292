import type { Queryable, QueryResult } from "@/lib/db/types";

/**
 * A query whose rows a test reads as `T` without a row schema: the test's own expectations check
 * them, as the driver returns them (node-postgres gives COUNT and BIGINT as strings).
 */
export async function queryAs<T>(
  q: Queryable,
  sql: string,
  params?: unknown[],
): Promise<QueryResult<T>> {
  const { rows, rowCount } = await q.query(sql, params);
  return { rows: rows as T[], rowCount };
}
