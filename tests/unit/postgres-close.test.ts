import { expect, it } from "vitest";
import { openPostgres } from "@/lib/db/open";
import { freshPostgresDatabase, ownPostgres } from "../support/harness";

// Each LISTEN holds a connection of its own, outside the pool. Closing the Db once left those
// open, reconnecting whenever they dropped, for as long as the process lived.
it("closing a PostgreSQL Db ends its LISTEN connections, and they do not come back", async () => {
  const shared = await freshPostgresDatabase();
  const own = shared ? undefined : ownPostgres();
  const url = shared ?? (own?.url as string);
  const name = new URL(url).pathname.slice(1);
  const watcher = await openPostgres(new URL("/postgres", url).toString());
  const connections = async () => {
    const { rows } = await watcher.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [name],
    );
    return rows[0]?.n;
  };
  try {
    const db = await openPostgres(url);
    await db.listen("close_a", () => {});
    await db.listen("close_b", () => {});
    await db.query("SELECT 1");
    expect(await connections()).toBe(3); // two listeners and the pool's client
    await db.close();
    await expect.poll(connections).toBe(0);
    // The listeners' reconnect would come 2 s after a drop: nothing comes back.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await connections()).toBe(0);
    // A listen after close opens nothing.
    await db.listen("close_c", () => {});
    expect(await connections()).toBe(0);
    // Nor does one that was still connecting when close() came.
    const other = await openPostgres(url);
    const connecting = other.listen("close_d", () => {});
    await other.close();
    await connecting;
    await expect.poll(connections).toBe(0);
  } finally {
    await watcher.close();
    own?.destroy();
  }
});
