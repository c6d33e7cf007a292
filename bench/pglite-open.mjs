// What the embedded database costs a process, by how V8 compiles PGlite's WebAssembly: as
// lib/db/open.ts has it (what Crewdeck runs), or with the baseline compiler only (`--liftoff-only`,
// what the tests' short-lived processes run). Each mode, in a fresh process: open, 200 small
// queries (a CLI or a test's server), then a write/read mix of MIX × 1,100 queries (a server that
// stays up), with the CPU after each. Alternating, median of the runs.
// `node bench/pglite-open.mjs [runs] [MIX, default 3]`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

const RUNS = Number(process.argv[2] ?? 5);
const MIX = Number(process.argv[3] ?? 3);
const CHILD = `
  const v8 = await import("node:v8");
  v8.setFlagsFromString("--wasm-lazy-compilation");
  const { PGlite } = await import("@electric-sql/pglite");
  const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  const t0 = performance.now();
  const db = await PGlite.create(process.env.DIR);
  const opened = performance.now() - t0;
  const openCpu = cpu();
  for (let i = 0; i < 200; i++) await db.query("SELECT relname FROM pg_class WHERE relkind = $1 LIMIT 5", ["r"]);
  const queried = performance.now() - t0 - opened;
  const shortCpu = cpu();
  await db.query("CREATE TABLE ev (id serial PRIMARY KEY, run int, body jsonb)");
  await db.query("CREATE INDEX ev_run ON ev (run, id)");
  const t1 = performance.now();
  for (let i = 0; i < Number(process.env.MIX) * 500; i++) {
    await db.query("INSERT INTO ev (run, body) VALUES ($1, $2)", [i % 50, JSON.stringify({ i, text: "x".repeat(200) })]);
    await db.query("SELECT id, body FROM ev WHERE run = $1 ORDER BY id DESC LIMIT 20", [i % 50]);
    if (i % 5 === 0) await db.query("SELECT run, count(*) FROM ev GROUP BY run ORDER BY run");
  }
  const mixed = performance.now() - t1;
  await db.close();
  console.log(JSON.stringify({ opened, queried, mixed, openCpu, shortCpu, cpu: cpu() }));
`;
const MODES = { "as served": [], "liftoff-only": ["--liftoff-only"] };

const work = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-bench-pglite-"));
try {
  const template = path.join(work, "template");
  await (await PGlite.create(template)).close();
  const results = Object.fromEntries(Object.keys(MODES).map((m) => [m, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [mode, flags] of Object.entries(MODES)) {
      const dir = path.join(work, `${mode}-${i}`);
      fs.cpSync(template, dir, { recursive: true });
      const res = spawnSync(process.execPath, [...flags, "--input-type=module", "-e", CHILD], {
        env: { ...process.env, DIR: dir, MIX: String(MIX) },
        encoding: "utf8",
      });
      if (res.status !== 0) throw new Error(res.stderr);
      results[mode].push(JSON.parse(res.stdout));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [mode, rs] of Object.entries(results)) {
    const m = (k) => Math.round(median(rs.map((r) => r[k])));
    console.log(
      `${mode}: open ${m("opened")} ms (${m("openCpu")} CPU-ms), +200 queries ${m("queried")} ms` +
        ` (${m("shortCpu")} CPU-ms in all), +${MIX * 1100}-query mix ${m("mixed")} ms` +
        ` (${m("cpu")} CPU-ms in all); median of ${RUNS}`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
