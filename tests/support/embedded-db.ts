import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/lib/db/types";
import { openFreshEmbeddedInMemory } from "./pglite-template";

/**
 * A fresh, migrated embedded database (in memory) for one test file, with `env` (and DATA_DIR, a
 * folder of its own for the files beside the database) set in process.env while the file runs — before anything reads it (lib/config/env.ts reads it
 * once). Call at the top level of the file; read `.db` inside tests.
 */
export function embeddedDbForFile(name: string, env: Record<string, string> = {}) {
  const saved: Record<string, string | undefined> = {};
  const state: { db?: Db; dir?: string } = {};
  beforeAll(async () => {
    state.dir = fs.mkdtempSync(path.join(os.tmpdir(), `crewdeck-${name}-`));
    for (const [k, v] of Object.entries({ DATA_DIR: state.dir, ...env })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    state.db = await openFreshEmbeddedInMemory();
  }, 60_000);
  afterAll(async () => {
    await state.db?.close();
    if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
  return {
    get db(): Db {
      if (!state.db) throw new Error("the embedded database is opened in beforeAll");
      return state.db;
    },
  };
}
