import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import type { Pool, PoolClient } from "pg";
import { errorMessage } from "@/lib/errors";
import { isConnectionError } from "./connection-errors";
import { queryable } from "./queryable";
import { storableParams } from "./storable-text";
import type { Db, Row } from "./types";

export async function openPostgres(url: string, log = console.error): Promise<Db> {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 });
  const outage = outageReporter(log);
  const listeners = new Set<() => Promise<void>>();
  let closed = false;
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (err) => outage.failed(err));
  const run = (q: Pool | PoolClient) =>
    queryable(async (sql, params) => {
      try {
        // Every write passes here: no NUL or lone surrogate reaches the database (storable-text.ts).
        const res = await q.query<Row>(sql, storableParams(sql, params));
        outage.ok();
        return { rows: res.rows, rowCount: res.rowCount ?? 0 };
      } catch (err) {
        outage.failed(err);
        throw err;
      }
    });
  return {
    kind: "postgres",
    ...run(pool),
    async tx(fn) {
      const client = await pool.connect().catch((err) => {
        outage.failed(err);
        throw err;
      });
      // A checked-out client has no 'error' listener of the pool's: the connection dropping
      // mid-transaction would be an unhandled 'error' event, which kills the process. The query
      // in flight rejects with the same error anyway; here it only marks the client as broken.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
        outage.failed(err);
      };
      client.on("error", onError);
      try {
        await client.query("BEGIN");
        const result = await fn(run(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        if (!broken) await client.query("ROLLBACK").catch((e: Error) => (broken = e));
        throw err;
      } finally {
        client.removeListener("error", onError);
        // With an error, the pool discards the client instead of handing a dead one out again.
        client.release(broken);
      }
    },
    listen: async (channel, onNotify, onState) => {
      if (closed) return;
      const stop = await listenPostgres(url, channel, onNotify, onState, outage.failed);
      // A close() while this connected must not leave it behind.
      if (closed) await stop();
      else listeners.add(stop);
    },
    // The LISTEN connections are not the pool's: closing only the pool left them open, and
    // reconnecting, for as long as the process lived.
    close: async () => {
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

/**
 * One line when the database becomes unreachable and one when it answers again, however many
 * connections and loops notice: an outage is not a flood of stack traces. Callers treat
 * connection errors (lib/db/connection-errors.ts) as "retry later" and need not log them.
 */
function outageReporter(log: (msg: string) => void) {
  let downSince = 0;
  return {
    failed(err: unknown) {
      if (downSince || !isConnectionError(err)) return;
      downSince = Date.now();
      log(`[crewdeck] database unreachable (${errorMessage(err)}); retrying quietly`);
    },
    ok() {
      if (!downSince) return;
      log(
        `[crewdeck] database reachable again after ${Math.round((Date.now() - downSince) / 1000)} s`,
      );
      downSince = 0;
    },
  };
}

// LISTEN needs a connection of its own; it reconnects (and re-listens) whenever it drops, and
// tells `onState` so a listener can distrust what it cached while notifications could be missed.
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onState?: (listening: boolean) => void,
  onError: (err: unknown) => void = () => {},
): Promise<() => Promise<void>> {
  const { default: pg } = await import("pg");
  let current: InstanceType<typeof pg.Client> | undefined;
  let stopped = false;
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const client = new pg.Client({ connectionString: url });
    current = client;
    let dropped = false;
    const retry = (err?: unknown) => {
      if (stopped) return;
      if (err) onError(err);
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
    } catch (err) {
      retry(err);
    }
  };
  await connect();
  // Stops listening for good: no reconnect after this.
  return async () => {
    stopped = true;
    current?.removeAllListeners();
    current?.on("error", () => {});
    await current?.end().catch(() => {});
  };
}

/**
 * The embedded database in `dataDir`'s pgdata folder; or, given `{ copyOf }`, a database in
 * memory that starts as a copy of a dumped one (`dumpDataDir`), which nothing is written back to:
 * the tests' fresh databases, a third of the CPU of a copy on disk.
 */
export async function openEmbedded(at: string | { copyOf: Blob }): Promise<Db> {
  // PGlite is PostgreSQL compiled to WebAssembly, which Node 20's V8 compiles whole at start.
  // Compiled lazily, only what the queries run: a sixth less CPU per open, and queries no slower
  // (bench/pglite-open.mjs, docs/benchmarks.md). Every process and test opening it pays this.
  v8.setFlagsFromString("--wasm-lazy-compilation");
  const { PGlite } = await import("@electric-sql/pglite");
  let pglite: InstanceType<typeof PGlite>;
  if (typeof at === "string") {
    const dir = path.resolve(at, "pgdata");
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir);
  } else pglite = await PGlite.create({ loadDataDir: at.copyOf });
  const wrap = (q: Pick<typeof pglite, "query">) =>
    queryable(async (sql, params) => {
      const res = await q.query<Row>(sql, storableParams(sql, params));
      // PGlite counts only the rows a write touched (0 for a SELECT): a SELECT counts the rows
      // it returns, as node-postgres does.
      return { rows: res.rows, rowCount: res.affectedRows || res.rows.length };
    });
  const here = new Map<string, Set<(payload: string) => void>>();
  return {
    kind: "embedded",
    ...wrap(pglite),
    tx: (fn) => pglite.transaction((t) => fn(wrap(t))),
    // Each notification comes one way: a NOTIFY in SQL through PGlite, or notifyHere.
    listen: async (channel, onNotify, onState) => {
      await pglite.listen(channel, onNotify);
      here.set(channel, (here.get(channel) ?? new Set()).add(onNotify));
      onState?.(true); // in-process: never drops
    },
    notifyHere: (channel, payload) => {
      for (const onNotify of here.get(channel) ?? []) {
        try {
          onNotify(payload);
        } catch (err) {
          console.error(`[db] a listener of ${channel} failed:`, err);
        }
      }
    },
    close: () => pglite.close(),
  };
}
