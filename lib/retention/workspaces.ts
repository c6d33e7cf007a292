import fs from "node:fs/promises";
import path from "node:path";
import { IdRow } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";

// Runs' workspace folders (DATA_DIR/workspaces/<execution id>/, lib/tools/builtin/workspace.ts)
// go with their runs. Each worker host has its own DATA_DIR, and the run may have been deleted
// by a sweeper elsewhere: every sweeper also removes folders whose run no longer exists.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const folderOf = (dataDir: string, id: string) =>
  path.join(dataDir, "workspaces", id.toLowerCase());

/**
 * Removes the folders of runs just deleted here. One directory read, not a look per run: under
 * load each await waits a turn of the busy event loop, and a batch is hundreds of runs.
 */
export async function removeWorkspaces(dataDir: string, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const present = new Set(await workspaceNames(dataDir));
  const doomed = ids.map((id) => id.toLowerCase()).filter((id) => present.has(id));
  await Promise.all(
    doomed.map((id) => fs.rm(folderOf(dataDir, id), { recursive: true, force: true })),
  );
  return doomed.length;
}

const workspaceNames = (dataDir: string) =>
  fs.readdir(path.join(dataDir, "workspaces")).catch((): string[] => []);

/** Removes the folders whose run is gone (deleted by another host's sweeper, or by hand). */
export async function removeOrphanWorkspaces(db: Db, dataDir: string): Promise<number> {
  const ids = (await workspaceNames(dataDir)).filter((n) => UUID.test(n));
  let removed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const { rows } = await db.query(
      "SELECT id::text AS id FROM executions WHERE id = ANY($1::uuid[])",
      [chunk],
      IdRow,
    );
    const alive = new Set(rows.map((r) => r.id));
    removed += await removeWorkspaces(
      dataDir,
      chunk.filter((id) => !alive.has(id)),
    );
  }
  return removed;
}
