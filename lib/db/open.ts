import fs from "node:fs";
import path from "node:path";
import type { Pool, PoolClient } from "pg";
import type { Db, Queryable, Row } from "./types";

export async function openPostgres(url: string): Promise<Db> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => console.error("[crewdeck] database connection error:", err.message));
  const run = async <T extends Row>(q: Pool | PoolClient, sql: string, params?: unknown[]) => {
    const res = await q.query(sql, params as unknown[]);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
  };
  return {
    kind: "postgres",
    query: (sql, params) => run(pool, sql, params),
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({ query: (sql, params) => run(client, sql, params) });
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    listen: (channel, onNotify, onState) => listenPostgres(url, channel, onNotify, onState),
    close: () => pool.end(),
  };
}

// LISTEN needs a connection of its own; it reconnects (and re-listens) whenever it drops, and
// tells `onState` so a listener can distrust what it cached while notifications could be missed.
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onState?: (listening: boolean) => void,
) {
  const { default: pg } = await import("pg");
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    let dropped = false;
    const retry = () => {
      if (dropped) return;
      dropped = true;
      onState?.(false);
      client.removeAllListeners();
      client.on("error", () => {});
      client.end().catch(() => {});
      setTimeout(() => connect().catch(() => {}), 2_000).unref();
    };
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (msg) => {
      if (msg.channel === channel) onNotify(msg.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      onState?.(true);
    } catch {
      retry();
    }
  };
  await connect();
}

export async function openEmbedded(dataDir: string): Promise<Db> {
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = path.resolve(dataDir, "pgdata");
  fs.mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  const wrap = (q: Pick<typeof pglite, "query">): Queryable => ({
    async query<T extends Row>(sql: string, params?: unknown[]) {
      const res = await q.query<T>(sql, params as unknown[]);
      return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
    },
  });
  return {
    kind: "embedded",
    ...wrap(pglite),
    tx: (fn) => pglite.transaction((t) => fn(wrap(t))),
    listen: async (channel, onNotify, onState) => {
      await pglite.listen(channel, onNotify);
      onState?.(true); // in-process: never drops
    },
    close: () => pglite.close(),
  };
}
