import type { z } from "zod";
import type { Queryable, QueryResult, Row, RowSchema } from "./types";

/**
 * The `query` of Queryable over a driver's `run`: rows read as data are parsed by their schema
 * here, once for both engines, so no caller asserts what a row holds.
 */
export function queryable(
  run: (sql: string, params?: unknown[]) => Promise<QueryResult<Row>>,
): Queryable {
  function query(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  function query<S extends RowSchema>(
    sql: string,
    params: unknown[],
    schema: S,
  ): Promise<QueryResult<z.output<S>>>;
  async function query(
    sql: string,
    params?: unknown[],
    schema?: RowSchema,
  ): Promise<QueryResult<unknown>> {
    const res = await run(sql, params);
    return schema ? { rows: parseRows(sql, res.rows, schema), rowCount: res.rowCount } : res;
  }
  return { query };
}

/**
 * Each row through its schema. A row that does not fit is the code's mistake (the schema and
 * the SQL disagree), not the request's: a plain Error naming the statement, never a ZodError a
 * route would answer as a bad request.
 */
function parseRows(sql: string, rows: unknown[], schema: RowSchema): unknown[] {
  const out = new Array<unknown>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const parsed = schema.safeParse(rows[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `a row of "${sql.replace(/\s+/g, " ").trim().slice(0, 80)}" does not fit its schema: ` +
          `${issue?.path.join(".") || "(row)"}: ${issue?.message}`,
      );
    }
    out[i] = parsed.data;
  }
  return out;
}
