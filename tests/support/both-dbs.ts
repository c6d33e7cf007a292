import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/lib/db/types";
import { freshPostgresDatabase, ownPostgres } from "./harness";
import { openFreshEmbedded } from "./pglite-template";

export type DbKind = "embedded" | "postgres";
export const DB_KINDS: DbKind[] = ["embedded", "postgres"];

/**
 * A fresh, migrated database of `kind` for a unit test: PGlite in a temporary folder, or a new
 * database on TEST_PG_URL's server — or, without one, on a PostgreSQL started for the test
 * (scripts/pg-test-server.sh). `close` ends it and whatever was started for it.
 */
export async function openTestDb(kind: DbKind): Promise<{ db: Db; close: () => Promise<void> }> {
  const { openPostgres } = await import("@/lib/db/open");
  const { migrate } = await import("@/lib/db/migrations");
  if (kind === "embedded") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-unit-db-"));
    const db = await openFreshEmbedded(dir);
    return {
      db,
      close: async () => {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const shared = await freshPostgresDatabase();
  const own = shared ? undefined : ownPostgres();
  const db = await openPostgres(shared ?? (own?.url as string));
  await migrate(db);
  return {
    db,
    close: async () => {
      await db.close();
      own?.destroy();
    },
  };
}
