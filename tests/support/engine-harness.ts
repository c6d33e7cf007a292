import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Principal } from "@/lib/auth/principal";
import type { KickoffRequest } from "@/lib/contract/crew";
import type { CrewCatalog } from "@/lib/crew/load-crews";
import type { CrewDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import type { ExecutionRow } from "@/lib/run-model/types";
import { type DbKind, openTestDb } from "./both-dbs";
import { queryAs } from "./rows";

// The real engine on the embedded database (or on PostgreSQL: `database`), for one test file or
// describe block: crews written as crew.yaml texts, a worker claiming runs, and reads of the rows
// and events it writes. `environment` may be a function, read when the hooks run (for the
// addresses of loopback servers started in an outer beforeAll).

export type EventRow = {
  seq: number;
  type: string;
  task_id: string | null;
  attempt: number | null;
  data: Record<string, unknown>;
  created_at: string;
};

const org: Principal = { kind: "org", tokenId: null };

export function engineHarness(
  crewFiles: Record<string, string>,
  environment: Record<string, string> | (() => Record<string, string>) = {},
  { database = "embedded" }: { database?: DbKind } = {},
) {
  const saved: Record<string, string | undefined> = {};
  const workerLog: string[] = [];
  const state: {
    tmp?: string;
    db?: Db;
    closeDb?: () => Promise<void>;
    catalog?: CrewCatalog;
    worker?: { stop(): Promise<void>; activeCount(): number };
    create?: typeof import("@/lib/runs/create-execution").createExecution;
  } = {};

  beforeAll(async () => {
    // lib/config/env.ts reads process.env once: set it before anything calls env().
    const ENV = {
      OFFLINE_MODEL_DELAY_MS: "0",
      DEFAULT_LLM: "offline",
      MODEL_MAX_RETRIES: "0",
      ...(typeof environment === "function" ? environment() : environment),
    };
    for (const [k, v] of Object.entries(ENV)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    state.tmp = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-engine-"));
    const crewsDir = path.join(state.tmp, "crews");
    for (const [slug, yaml] of Object.entries(crewFiles)) {
      fs.mkdirSync(path.join(crewsDir, slug), { recursive: true });
      // A CrewAI Flow is a flow.yaml; anything else a crew.yaml.
      const file = /^schema: crewai\.flow\/v1$/m.test(yaml) ? "flow.yaml" : "crew.yaml";
      fs.writeFileSync(path.join(crewsDir, slug, file), yaml);
    }
    const { loadCrews } = await import("@/lib/crew/load-crews");
    state.catalog = loadCrews(crewsDir);
    ({ db: state.db, close: state.closeDb } = await openTestDb(database));
    ({ createExecution: state.create } = await import("@/lib/runs/create-execution"));
    const { startWorker } = await import("@/lib/engine/worker");
    state.worker = startWorker({
      db: state.db,
      concurrency: 2,
      leaseMs: 2000,
      pollMs: 50,
      log: (m) => workerLog.push(m),
    });
  }, 60_000);

  afterAll(async () => {
    await state.worker?.stop();
    await state.closeDb?.();
    if (state.tmp) fs.rmSync(state.tmp, { recursive: true, force: true });
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const db = () => state.db as Db;
  const catalog = () => state.catalog as CrewCatalog;

  function crew(slug: string): CrewDef {
    const c = catalog().crews.get(slug);
    if (!c) throw new Error(`no crew ${slug}: ${JSON.stringify(catalog().errors)}`);
    return c;
  }

  async function getRow(id: string): Promise<ExecutionRow> {
    const { rows } = await queryAs<ExecutionRow>(db(), "SELECT * FROM executions WHERE id = $1", [
      id,
    ]);
    const row = rows[0];
    if (!row) throw new Error(`no execution ${id}`);
    return row;
  }

  return {
    db,
    catalog,
    crew,
    workerLog,
    getRow,
    kickoff: (slug: string, inputs: KickoffRequest["inputs"] = {}) =>
      (state.create as NonNullable<typeof state.create>)({
        db: db(),
        crew: crew(slug),
        principal: org,
        request: { inputs },
      }),
    async events(id: string): Promise<EventRow[]> {
      const { rows } = await queryAs<EventRow>(
        db(),
        "SELECT seq, type, task_id, attempt, data, created_at FROM execution_events WHERE execution_id = $1 ORDER BY seq",
        [id],
      );
      return rows;
    },
    /** Polls the row until `done` holds; fails at once if the run ends otherwise. */
    async waitFor(id: string, done: (row: ExecutionRow) => boolean, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const row = await getRow(id);
        if (done(row)) return row;
        if (["completed", "error", "cancelled"].includes(row.status) || Date.now() > deadline) {
          expect.fail(
            `execution ${id} is ${row.status} (${row.error ?? ""}); worker log: ${workerLog.join(" | ")}`,
          );
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
