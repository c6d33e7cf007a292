// Benchmarks GET /status (and /inputs) with autocannon, side by side in one run:
//   1. Crewdeck on the embedded database
//   2. Crewdeck on PostgreSQL
//   3. a bare node:http server doing the same PostgreSQL read (bench/bare-status-server.mjs)
//   4. a bare Next.js route handler returning constant JSON (/api/healthz)
//   5. the fair baseline of /status: a Next.js route of the same path shape (two dynamic segments,
//      same depth) answering a constant JSON body of the same size as /status's, with no auth and
//      no database: GET /api/bench/<crew>/status/<id>?bytes=N (app/api/bench/…). That route only
//      exists when BENCH_ROUTES=1, set here; without it (any real deployment) it is a 404.
//      Measured on each server, alternating with /status in slices (ROUNDS, default 4); each
//      /status row is compared with its own server's. Target: ≥ 0.9×.
//   6. the same pair on PostgreSQL for a run paused for review (blog-post), whose body counts its
//      running time and review wait up to each poll, as a run under way does.
// Needs TEST_PG_URL (bench/run.sh starts a throw-away PostgreSQL) and a build (`next build`).
// Bounded: DURATION seconds per target; everything it starts, it stops. Appends to RESULTS.md.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { freePort } from "./common.mjs";

const root = path.resolve(import.meta.dirname, "..");
const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const WARMUP_S = 2;
const TOKEN = "bench-org-token-0123456789abcdef";
const children = [];

async function start(args, env, ready) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const t0 = Date.now();
  while (!ready.test(out)) {
    if (child.exitCode !== null || Date.now() - t0 > 60_000)
      throw new Error(`failed to start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

async function crewdeck(extraEnv) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-bench-"));
  await start(
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      CREW_TOKEN: TOKEN,
      OFFLINE_MODEL_DELAY_MS: "0",
      RATE_LIMIT_PER_MINUTE: "10000000", // the load is one token: no 429s
      BENCH_ROUTES: "1", // the same-shape constant route (5. above)
      ...extraEnv,
    },
    /Crewdeck is ready/,
  );
  const url = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const base = `${url}/api/crews/research-brief`;
  const t0 = performance.now();
  const { kickoff_id } = await (
    await fetch(`${base}/kickoff`, {
      method: "POST",
      headers,
      body: JSON.stringify({ inputs: { topic: "Bench", audience: "machines" } }),
    })
  ).json();
  let status;
  do {
    await new Promise((r) => setTimeout(r, 20));
    status = await (await fetch(`${base}/status/${kickoff_id}`, { headers })).json();
  } while (status.status !== "completed" && status.status !== "error");
  const kickoffToDone = performance.now() - t0;
  // The same-shape constant route answers a body exactly as long as this one.
  const statusBytes = Buffer.byteLength(JSON.stringify(status));
  const sameShape = `${url}/api/bench/research-brief/status/${kickoff_id}?bytes=${statusBytes}`;
  const check = await fetch(sameShape);
  const checkBytes = Buffer.byteLength(await check.text());
  if (check.status !== 200 || checkBytes !== statusBytes)
    throw new Error(`${sameShape}: ${check.status}, ${checkBytes} bytes (want ${statusBytes})`);
  return { url, base, id: kickoff_id, headers, kickoffToDone, statusBytes, sameShape };
}

/** A blog-post run on `server` waiting for its review, with its own same-shape route. */
async function pausedRun(server) {
  const base = `${server.url}/api/crews/blog-post`;
  const { kickoff_id } = await (
    await fetch(`${base}/kickoff`, {
      method: "POST",
      headers: server.headers,
      body: JSON.stringify({ inputs: { topic: "Bench" } }),
    })
  ).json();
  let status;
  do {
    await new Promise((r) => setTimeout(r, 50));
    status = await (
      await fetch(`${base}/status/${kickoff_id}`, { headers: server.headers })
    ).json();
    if (status.status === "completed" || status.status === "error")
      throw new Error(`blog-post ended (${status.status}) instead of waiting for its review`);
  } while (status.status !== "pending_human_input");
  const statusBytes = Buffer.byteLength(JSON.stringify(status));
  const sameShape = `${server.url}/api/bench/blog-post/status/${kickoff_id}?bytes=${statusBytes}`;
  return { ...server, base, id: kickoff_id, statusBytes, sameShape };
}

function load(url, headers, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx || r.errors)
        return reject(new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`));
      resolve({ rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 });
    });
  });
}

async function main() {
  const pgUrl = process.env.TEST_PG_URL;
  if (!pgUrl) throw new Error("TEST_PG_URL is not set: run bench/run.sh");
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query("DROP DATABASE IF EXISTS crewdeck_bench"); // left by an earlier run
  await admin.query("CREATE DATABASE crewdeck_bench");
  await admin.end();
  const databaseUrl = pgUrl.replace(/\/[^/]*$/, "/crewdeck_bench");

  const embedded = await crewdeck({});
  const onPg = await crewdeck({ DATABASE_URL: databaseUrl });
  const barePort = await freePort();
  await start(
    ["bench/bare-status-server.mjs"],
    { PORT: String(barePort), DATABASE_URL: databaseUrl },
    /ready/,
  );

  const rows = [];
  const measure = async (name, url, headers) => {
    await load(url, headers, WARMUP_S); // JIT: the first target measured is not the coldest
    const r = await load(url, headers);
    rows.push({ name, ...r });
    console.log(
      `${name.padEnd(44)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`,
    );
  };
  await measure(
    "bare node:http + same PostgreSQL read",
    `http://127.0.0.1:${barePort}/status/${onPg.id}`,
    {},
  );
  await measure(
    "bare Next.js route, constant JSON (/api/healthz)",
    `${embedded.url}/api/healthz`,
    {},
  );
  // /status against its fair baseline, the same-shape route on the same server, alternating in
  // ROUNDS slices of DURATION / ROUNDS s each: on 2 shared cores a neighbour's burst then lands on
  // both sides instead of on one. The rows give the mean req/s of the slices, p50/p99 their median.
  const ROUNDS = Number(process.env.ROUNDS ?? 4);
  const pair = async (server, label, what = "") => {
    const targets = [
      [
        `same-shape constant route, ${server.statusBytes} B (/api/bench/…/status/…, ${label} server${what})`,
        server.sameShape,
        {},
      ],
      [
        `Crewdeck GET /status (${label}${what})`,
        `${server.base}/status/${server.id}`,
        server.headers,
      ],
    ];
    for (const [, url, headers] of targets) await load(url, headers, WARMUP_S);
    const slices = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, [, url, headers]] of targets.entries())
        slices[i].push(await load(url, headers, Math.max(1, Math.round(DURATION / ROUNDS))));
    for (const [i, [name]] of targets.entries()) {
      const mid = (k) => slices[i].map((x) => x[k]).sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
      const r = {
        rps: Math.round(slices[i].reduce((n, x) => n + x.rps, 0) / ROUNDS),
        p50: mid("p50"),
        p99: mid("p99"),
      };
      rows.push({ name, ...r });
      console.log(
        `${name.padEnd(44)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`,
      );
    }
  };
  await pair(onPg, "PostgreSQL");
  await pair(embedded, "embedded");
  await pair(await pausedRun(onPg), "PostgreSQL", ", a run paused for review");
  await measure("Crewdeck GET /inputs (embedded)", `${embedded.base}/inputs`, embedded.headers);

  const bare = rows[0].rps;
  // Each /status row against the same-shape route of its own server.
  const sameShapeOf = (name) => {
    const server = name.includes("PostgreSQL") ? "PostgreSQL server" : "embedded server";
    const paused = name.includes("paused");
    return rows.find((r) => r.name.includes(server) && r.name.includes("paused") === paused).rps;
  };
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`;
  const file = path.join(root, "bench/RESULTS.md");
  if (!fs.existsSync(file)) {
    fs.writeFileSync(
      file,
      "# Benchmark results\n\nAppended by `npm run bench`. autocannon, loopback, load generator on the same machine.\n\n| date (UTC) | machine | target | connections × s | req/s | p50 ms | p99 ms | vs bare |\n|---|---|---|---|---|---|---|---|\n",
    );
  }
  const lines = rows.map(
    (r) =>
      `| ${date} | ${machine} | ${r.name} | ${CONNECTIONS} × ${DURATION} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / bare).toFixed(2)}${r.name.startsWith("Crewdeck GET /status") ? ` (${(r.rps / sameShapeOf(r.name)).toFixed(2)} of same-shape)` : ""} |`,
  );
  lines.push(
    `| ${date} | ${machine} | kickoff → completed, example crew (3 tasks, offline model, no delay) | – | embedded ${Math.round(embedded.kickoffToDone)} ms · PostgreSQL ${Math.round(onPg.kickoffToDone)} ms | | | |`,
  );
  fs.appendFileSync(file, `${lines.join("\n")}\n`);
  for (const r of rows.filter((r) => r.name.startsWith("Crewdeck GET /status")))
    console.log(
      `${r.name}: ${(r.rps / sameShapeOf(r.name)).toFixed(2)} × the same-shape constant route`,
    );
  console.log(
    `kickoff → completed: embedded ${Math.round(embedded.kickoffToDone)} ms, PostgreSQL ${Math.round(onPg.kickoffToDone)} ms`,
  );
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const c of children) c.kill("SIGTERM");
  });
