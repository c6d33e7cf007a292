import { queryable } from "@/lib/db/queryable";
import type { Db, Row } from "@/lib/db/types";

/**
 * A database whose reads `answer` scripts, and whose LISTEN side the test drives: `notify` is a
 * NOTIFY arriving, `connection` a lost or regained connection. Rows go through the caller's row
 * schema, as the real ones do. Every statement is recorded in `reads`.
 */
export function scriptedDb(answer: (sql: string, params: unknown[]) => Row[] | Promise<Row[]>) {
  const reads: { sql: string; params: unknown[] }[] = [];
  const listeners: {
    channel: string;
    onNotify: (payload: string) => void;
    onState?: (listening: boolean) => void;
  }[] = [];
  const control = { listenFails: false };

  // Rows go through lib/db's own reader, schema and all, as the real engines' do.
  const { query } = queryable(async (sql, params = []) => {
    reads.push({ sql, params });
    const rows = await answer(sql, params);
    return { rows, rowCount: rows.length };
  });

  const db: Db = {
    kind: "embedded",
    query,
    tx: (fn) => fn({ query }),
    listen: async (channel, onNotify, onState) => {
      if (control.listenFails) throw new Error("cannot listen");
      listeners.push({ channel, onNotify, onState });
    },
    close: async () => {},
  };
  return {
    db,
    reads,
    listeners,
    control,
    notify: (payload: string) => {
      for (const l of listeners) l.onNotify(payload);
    },
    connection: (listening: boolean) => {
      for (const l of listeners) l.onState?.(listening);
    },
  };
}

/** A count of calls, and a wait for the n-th (resolved at once if it has been). */
export function counter() {
  let n = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  return {
    call: () => {
      n++;
      for (const w of waiting.filter((w) => w.n <= n)) w.resolve();
    },
    count: () => n,
    until: (at: number) =>
      new Promise<void>((resolve) => (n >= at ? resolve() : waiting.push({ n: at, resolve }))),
  };
}
