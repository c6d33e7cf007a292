// The one interface both engines satisfy: PGlite (embedded) and node-postgres (scale-out).
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: T[]; rowCount: number }>;
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
