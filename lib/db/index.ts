import "server-only";
import { env } from "@/lib/config/env";
import { acquireEmbeddedLock } from "./embedded-lock";
import { migrate } from "./migrations";
import { openEmbedded, openPostgres } from "./open";
import type { Db } from "./types";

export type { Db } from "./types";

// One handle per process. Next.js may load this module in several bundles (instrumentation and
// route handlers), so the handle lives on globalThis, not in module scope.
declare global {
  var __crewdeckDb: Promise<Db> | undefined;
}
const slot = globalThis;

export function getDb(): Promise<Db> {
  slot.__crewdeckDb ??= open().catch((err) => {
    slot.__crewdeckDb = undefined; // let the next request try again
    throw err;
  });
  return slot.__crewdeckDb;
}

async function open(): Promise<Db> {
  const { DATABASE_URL, DATA_DIR, PORT } = env();
  let db: Db;
  if (DATABASE_URL) {
    db = await openPostgres(DATABASE_URL);
  } else {
    const fs = await import("node:fs");
    fs.mkdirSync(DATA_DIR, { recursive: true });
    await acquireEmbeddedLock(DATA_DIR, PORT);
    db = await openEmbedded(DATA_DIR);
  }
  await migrate(db);
  return db;
}
