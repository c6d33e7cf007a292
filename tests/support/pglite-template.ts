import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// A fresh PGlite database runs initdb in WebAssembly: seconds of CPU each time, and the suites
// open well over a hundred. So one migrated database is made per version of the migrations and
// of PGlite, and every fresh embedded database of the tests starts as a copy of it. The
// migrations still run for real, once, into the template. A server's copy is a folder (~26 MB in
// 585 files, initdb's template databases left out); a unit test's is loaded into memory from the
// template's dump, since nothing reopens it.
const ROOT = path.resolve(import.meta.dirname, "../..");

function templateKey() {
  const hash = crypto.createHash("sha256");
  hash.update(fs.readFileSync(path.join(ROOT, "lib/db/migrations.ts")));
  hash.update(fs.readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json")));
  hash.update("with its dump, without template0/1"); // the layout of the template's folder
  return hash.digest("hex").slice(0, 16);
}

const TEMPLATE_DIR = path.join(os.tmpdir(), `crewdeck-pglite-template-${templateKey()}`);

const DUMP = "pgdata.tar";

/** The migrated template's folder, made now if this machine has none for these migrations. */
export async function ensureTemplate(): Promise<string> {
  if (fs.existsSync(TEMPLATE_DIR)) return TEMPLATE_DIR;
  const { openEmbedded } = await import("@/lib/db/open");
  const { migrate } = await import("@/lib/db/migrations");
  const building = fs.mkdtempSync(`${TEMPLATE_DIR}.building-`);
  const db = await openEmbedded(building);
  await migrate(db);
  await db.close();
  const { PGlite } = await import("@electric-sql/pglite");
  const pglite = await PGlite.create(path.join(building, "pgdata"));
  // PGlite serves the one database `postgres`; initdb's template0 and template1 were a third of
  // every copy's bytes and half its files, copied for each fresh database and never opened.
  for (const name of ["template0", "template1"]) {
    await pglite.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pglite.exec(`DROP DATABASE ${name}`);
  }
  await pglite.exec("CHECKPOINT");
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  fs.writeFileSync(path.join(building, DUMP), Buffer.from(await dump.arrayBuffer()));
  try {
    // Atomic: a reader sees no template or a whole one. Another process may have won the race.
    fs.renameSync(building, TEMPLATE_DIR);
  } catch (err) {
    if (!fs.existsSync(TEMPLATE_DIR)) throw err;
    fs.rmSync(building, { recursive: true, force: true });
  }
  return TEMPLATE_DIR;
}

/** ensureTemplate for synchronous callers (Playwright's config), in a child process. */
export function ensureTemplateSync(): string {
  if (fs.existsSync(TEMPLATE_DIR)) return TEMPLATE_DIR;
  const res = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "tests/support/pglite-template-cli.ts"],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (res.status !== 0) throw new Error(`cannot make the database template:\n${res.stderr}`);
  return TEMPLATE_DIR;
}

/** Gives `dataDir` (a DATA_DIR) a fresh migrated embedded database, unless it has one already. */
export function seedDataDir(template: string, dataDir: string) {
  const target = path.join(dataDir, "pgdata");
  if (fs.existsSync(target)) return;
  fs.cpSync(path.join(template, "pgdata"), target, { recursive: true });
}

/** A fresh, migrated embedded database in `dataDir` (a DATA_DIR), opened. */
export async function openFreshEmbedded(dataDir: string) {
  seedDataDir(await ensureTemplate(), dataDir);
  const { openEmbedded } = await import("@/lib/db/open");
  return openEmbedded(dataDir);
}

let dump: Promise<Blob> | undefined;

/** A fresh, migrated embedded database in memory: for a test that never reopens it. */
export async function openFreshEmbeddedInMemory() {
  dump ??= ensureTemplate().then((dir) => new Blob([fs.readFileSync(path.join(dir, DUMP))]));
  const { openEmbedded } = await import("@/lib/db/open");
  return openEmbedded({ copyOf: await dump });
}
