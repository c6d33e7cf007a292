// What a test server's start costs, with and without the code cache the tests give it
// (tests/support/compile-cache.cjs): `next start` with the tests' flags on a fresh copy of the
// tests' embedded template, to ready and then three requests, CPU-s of the server's process.
// Alternating, ROUNDS of each; the cache is made by one start before the first round.
// Needs a build (`npx next build`). `node bench/server-start.mjs [rounds, default 5]`.
import fs from "node:fs";
import path from "node:path";
import { cleanup, freePort, ROOT, startNode, TOKEN, tempDir } from "./common.mjs";

const ROUNDS = Number(process.argv[2] ?? 5);
const FLAGS = ["--liftoff-only", "--no-opt"];
const CACHE = ["--require", path.join(ROOT, "tests/support/compile-cache.cjs")];
const templates = fs
  .readdirSync("/tmp")
  .filter((d) => d.startsWith("crewdeck-pglite-template-"))
  .map((d) => path.join("/tmp", d))
  .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
if (!templates[0])
  throw new Error("no test database template: run `npm run test:unit` (or npm test) once first");

const cpuSeconds = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").replace(/.*\) /, "").split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};

async function start(flags) {
  const dir = tempDir("crewdeck-server-start-");
  fs.cpSync(path.join(templates[0], "pgdata"), path.join(dir, "pgdata"), { recursive: true });
  const port = await freePort();
  const env = {
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: dir,
    CREWS_DIR: path.join(ROOT, "tests/fixtures/crews"),
    CREW_TOKEN: TOKEN,
  };
  const t0 = performance.now();
  const { child } = await startNode(
    [...flags, "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    env,
    /Crewdeck is ready/,
  );
  const ready = cpuSeconds(child.pid);
  const readyMs = performance.now() - t0;
  const headers = { authorization: `Bearer ${TOKEN}` };
  for (const url of ["/api/healthz", "/api/crews", "/api/crews/review/inputs"])
    await (await fetch(`http://127.0.0.1:${port}${url}`, { headers })).text();
  const served = cpuSeconds(child.pid);
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return { ready, readyMs, served };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  fs.rmSync(path.join(ROOT, ".next/compile-cache"), { recursive: true, force: true });
  await start([...FLAGS, ...CACHE]); // writes the cache, as a suite's first server to exit does
  const runs = { "tests' flags": [], "+ code cache": [] };
  for (let i = 0; i < ROUNDS; i++) {
    runs["tests' flags"].push(await start(FLAGS));
    runs["+ code cache"].push(await start([...FLAGS, ...CACHE]));
  }
  for (const [name, rs] of Object.entries(runs))
    console.log(
      `${name.padEnd(14)} ready: ${median(rs.map((r) => r.ready)).toFixed(2)} CPU-s in ` +
        `${median(rs.map((r) => r.readyMs)).toFixed(0)} ms; with 3 requests: ` +
        `${median(rs.map((r) => r.served)).toFixed(2)} CPU-s (median of ${rs.length})`,
    );
} finally {
  await cleanup();
}
