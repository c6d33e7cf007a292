// The engine in one process, without Next.js: RUNS executions of the example crew queued, then
// one worker (lib/engine/worker.ts, concurrency CONCURRENCY) runs them all; the database is
// DATABASE_URL (PostgreSQL) or a fresh embedded one. Prints executions/s, the worker's CPU per
// task and the database round trips per task, as JSON on the last line. For profiling the engine
// itself: `node --cpu-prof --conditions=react-server --import tsx bench/engine-in-process.ts`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { loadCrews } from "@/lib/crew/load-crews";
import { num } from "@/lib/db/columns";
import { migrate } from "@/lib/db/migrations";
import { openEmbedded, openPostgres } from "@/lib/db/open";
import { queryable } from "@/lib/db/queryable";
import type { Db, Queryable } from "@/lib/db/types";
import { startWorker } from "@/lib/engine/worker";
import { createExecution } from "@/lib/runs/create-execution";

const RUNS = Number(process.env.RUNS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const CREW = process.env.CREW ?? "research-brief";

const sqlCounts = new Map<string, { n: number; ms: number }>();

/** Counts statements, transactions included (BEGIN and COMMIT are round trips too). */
function counted(db: Db) {
  const n = { statements: 0 };
  const wrap = (q: Queryable): Queryable =>
    queryable((sql, params) => {
      n.statements++;
      if (!process.env.LOG_SQL) return q.query(sql, params);
      const k = sql.replace(/\s+/g, " ").slice(0, 70);
      const t0 = performance.now();
      return q.query(sql, params).finally(() => {
        const s = sqlCounts.get(k) ?? { n: 0, ms: 0 };
        s.n++;
        s.ms += performance.now() - t0;
        sqlCounts.set(k, s);
      });
    });
  const inner = db.tx.bind(db);
  const out: Db = {
    ...db,
    ...wrap(db),
    tx: (fn) => {
      n.statements += 2;
      return inner((q) => fn(wrap(q)));
    },
  };
  return { db: out, n };
}

async function main() {
  const url = process.env.DATABASE_URL;
  const raw = url
    ? await openPostgres(url)
    : await openEmbedded(fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-engine-")));
  await migrate(raw);
  const crew = loadCrews(path.resolve("crews")).crews.get(CREW);
  if (!crew) throw new Error(`no crew ${CREW} in crews/`);
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++)
    ids.push(
      await createExecution({
        db: raw,
        crew,
        principal: { kind: "org", tokenId: null },
        request: { inputs: { topic: `Heat pumps ${i}`, audience: "home owners" } },
      }),
    );
  const { db, n } = counted(raw);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = startWorker({
    db,
    concurrency: CONCURRENCY,
    leaseMs: 60_000,
    pollMs: 50,
    log: () => {},
  });
  for (;;) {
    const { rows } = await raw.query(
      "SELECT count(*)::int AS open FROM executions WHERE status IN ('queued', 'running')",
      [],
      z.object({ open: num }),
    );
    if (rows[0]?.open === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await worker.stop();
  const { rows } = await raw.query(
    "SELECT status, count(*)::int AS n FROM executions WHERE id = ANY($1::uuid[]) GROUP BY status",
    [ids],
    z.object({ status: z.string(), n: num }),
  );
  const tasks = RUNS * crew.tasks.length;
  const result = {
    db: url ? "postgres" : "embedded",
    runs: RUNS,
    statuses: Object.fromEntries(rows.map((r) => [r.status, r.n])),
    executions_per_s: Math.round((RUNS * 1000 * 10) / elapsed) / 10,
    cpu_ms_per_task: Math.round(((cpu.user + cpu.system) / 1000 / tasks) * 100) / 100,
    statements_per_task: Math.round((n.statements / tasks) * 10) / 10,
  };
  await raw.close();
  if (process.env.LOG_SQL)
    for (const [k, v] of [...sqlCounts].sort((a, b) => b[1].ms - a[1].ms))
      console.log(
        `${(v.n / tasks).toFixed(2).padStart(6)}/task ${(v.ms / v.n).toFixed(2).padStart(7)} ms each  ${k}`,
      );
  console.log(JSON.stringify(result));
}

main().then(
  // The worker's LISTEN connections stay open: end here.
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
