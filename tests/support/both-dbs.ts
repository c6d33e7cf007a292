import type { Db } from "@/lib/db/types";
import { freshPostgresDatabase, ownPostgres } from "./harness";
import { openFreshEmbeddedInMemory } from "./pglite-template";

export type DbKind = "embedded" | "postgres";
export const DB_KINDS: DbKind[] = ["embedded", "postgres"];

/**
 * A fresh, migrated database of `kind` for a unit test: PGlite in memory, or a new
 * database on TEST_PG_URL's server — or, without one, on a PostgreSQL started for the test
 * (scripts/pg-test-server.sh). `close` ends it and whatever was started for it.
 */
export async function openTestDb(kind: DbKind): Promise<{ db: Db; close: () => Promise<void> }> {
  const { openPostgres } = await import("@/lib/db/open");
  const { migrate } = await import("@/lib/db/migrations");
  if (kind === "embedded") {
    const db = await openFreshEmbeddedInMemory();
    return { db, close: () => db.close() };
  }
  const shared = await freshPostgresDatabase({ migrated: true });
  const own = shared ? undefined : ownPostgres();
  const db = await openPostgres(shared ?? (own?.url as string));
  await migrate(db); // on the shared server, finds every migration applied
  return {
    db,
    close: async () => {
      await db.close();
      own?.destroy();
    },
  };
}
