import type { z } from "zod";

// The one interface both engines satisfy: PGlite (embedded) and node-postgres (scale-out).
export type Row = Record<string, unknown>;
/** What a row schema (lib/db/columns.ts) turns a row into. */
export type RowSchema = z.ZodType;
export type QueryResult<T> = { rows: T[]; rowCount: number };

export interface Queryable {
  /** A statement whose rows are not read as typed values (writes, DDL, a count of rows). */
  query(sql: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** Rows read as data: each one parsed by `schema`, so its type is checked, never asserted. */
  query<S extends RowSchema>(
    sql: string,
    params: unknown[],
    schema: S,
  ): Promise<QueryResult<z.output<S>>>;
}

export interface Db extends Queryable {
  readonly kind: "embedded" | "postgres";
  /** Runs `fn` in one transaction: everything it writes commits together or not at all. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each NOTIFY on `channel` (lower-case), from any process sharing the
   * database; `onState(false)` when notifications may be missed (connection lost), `true` again
   * once listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onState?: (listening: boolean) => void,
  ): Promise<void>;
  /**
   * On the embedded database only, whose listeners are all in this process: tells them at once,
   * as a NOTIFY committed now would (before the write's caller goes on), without the NOTIFY that
   * PGlite writes through its file system. PostgreSQL's listeners may be in any process: there,
   * writes NOTIFY.
   */
  notifyHere?: (channel: string, payload: string) => void;
  close(): Promise<void>;
}
