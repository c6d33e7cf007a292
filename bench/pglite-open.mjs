// What opening the embedded database costs, with V8 compiling PGlite's WebAssembly eagerly (Node
// 20's default) or lazily (lib/db/open.ts; Node 22's default): CPU and time to open, then 200
// small queries, in a fresh process each time, alternating. `node bench/pglite-open.mjs [runs]`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

const RUNS = Number(process.argv[2] ?? 5);
const CHILD = `
  const v8 = await import("node:v8");
  if (process.env.LAZY === "1") v8.setFlagsFromString("--wasm-lazy-compilation");
  const { PGlite } = await import("@electric-sql/pglite");
  const t0 = performance.now();
  const db = await PGlite.create(process.env.DIR);
  const opened = performance.now() - t0;
  for (let i = 0; i < 200; i++) await db.query("SELECT relname FROM pg_class WHERE relkind = $1 LIMIT 5", ["r"]);
  const queried = performance.now() - t0 - opened;
  await db.close();
  const u = process.cpuUsage();
  console.log(JSON.stringify({ opened, queried, cpu: (u.user + u.system) / 1000 }));
`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-bench-pglite-"));
try {
  const template = path.join(work, "template");
  await (await PGlite.create(template)).close();
  const results = { eager: [], lazy: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const mode of ["eager", "lazy"]) {
      const dir = path.join(work, `${mode}-${i}`);
      fs.cpSync(template, dir, { recursive: true });
      const res = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD], {
        env: { ...process.env, DIR: dir, LAZY: mode === "lazy" ? "1" : "0" },
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
      `${mode}: open ${m("opened")} ms, 200 queries ${m("queried")} ms, CPU ${m("cpu")} ms (median of ${RUNS})`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
