// Shared by the benchmark scripts: the processes and databases they start (and always stop),
// and where their figures go. Load and measurements: ./measure.mjs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const TOKEN = "bench-org-token-0123456789abcdef";
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// Everything a script starts is tracked here, and `cleanup()` ends exactly these (by pid).
const children = new Set();
const tempDirs = new Set();

// CPU_PROF_DIR=/some/dir: servers and workers write a V8 CPU profile there when they exit
// (summarise one with `node bench/cpu-profile-top.mjs <file>`).
const profiling = process.env.CPU_PROF_DIR
  ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(process.env.CPU_PROF_DIR)}`]
  : [];

/** Starts `node <args>` and waits until its output matches `ready`; the child's pid is node's. */
export async function startNode(args, env, ready, { timeoutMs = 90_000 } = {}) {
  const child = spawn(process.execPath, [...profiling, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  let out = "";
  let readyAt = 0; // when the line arrived, not when the loop below noticed it
  const take = (d) => {
    out += d;
    if (!readyAt && ready.test(out)) readyAt = Date.now();
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const t0 = Date.now();
  while (!readyAt) {
    if (child.exitCode !== null || Date.now() - t0 > timeoutMs) {
      await stop(child);
      throw new Error(`${args.join(" ")} failed to start:\n${out.slice(-4000)}`);
    }
    await sleep(20);
  }
  return { child, pid: child.pid, readyAt, output: () => out };
}

/**
 * `next start` on a free loopback port. Defaults suit a benchmark: CREW_TOKEN, no model delay, no
 * rate limit in the way, a fresh DATA_DIR. Retries if the build is being replaced under it.
 */
export async function startCrewdeck(env = {}, { nodeArgs = [] } = {}) {
  const dataDir = env.DATA_DIR ?? tempDir("crewdeck-bench-");
  for (let attempt = 1; ; attempt++) {
    // A preset PORT lets the caller know the URL beforehand (e.g. for PUBLIC_URL).
    const port = env.PORT ? Number(env.PORT) : await freePort();
    try {
      const proc = await startNode(
        [
          ...nodeArgs,
          "node_modules/next/dist/bin/next",
          "start",
          "-p",
          String(port),
          "-H",
          "127.0.0.1",
        ],
        {
          PORT: String(port),
          DATA_DIR: dataDir,
          CREW_TOKEN: TOKEN,
          OFFLINE_MODEL_DELAY_MS: "0",
          RATE_LIMIT_PER_MINUTE: "10000000",
          ...env,
        },
        /Crewdeck is ready/,
      );
      const url = `http://127.0.0.1:${port}`;
      return {
        ...proc,
        port,
        url,
        dataDir,
        base: (crew = "research-brief") => `${url}/api/crews/${crew}`,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      };
    } catch (err) {
      // Another `next build` may be rewriting .next: wait for it and try again.
      if (attempt >= 4 || !/\.next|BUILD_ID|production build|ENOENT/.test(err.message)) throw err;
      console.error(`next start failed (attempt ${attempt}), retrying in 20 s:\n${err.message}`);
      await sleep(20_000);
    }
  }
}

/** A separate engine worker (scripts/worker.ts); needs DATABASE_URL in `env`. */
export function startWorker(env = {}, { nodeArgs = [] } = {}) {
  return startNode(
    [...nodeArgs, "--conditions=react-server", "scripts/cli.mjs", "worker"],
    { OFFLINE_MODEL_DELAY_MS: "0", ...env },
    /Worker \S+ running/,
  );
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stop(procOrChild, graceMs = 10_000) {
  const child = procOrChild?.child ?? procOrChild;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Stops every process this script started and removes its temporary folders. */
export async function cleanup() {
  await Promise.allSettled([...children].map((c) => stop(c, 5_000)));
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Runs `main`, always cleaning up (also on Ctrl-C); a failure sets a non-zero exit code. */
export function run(main) {
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      console.error(`${signal}: stopping what this benchmark started`);
      cleanup().finally(() => process.exit(130));
    });
  }
  main()
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(async () => {
      await cleanup();
      setTimeout(() => process.exit(), 200).unref();
    });
}

/**
 * A fresh database in the benchmark's PostgreSQL (TEST_PG_URL), optionally a copy of `template`
 * (which must have no connections); returns its URL and a drop().
 */
export async function createDatabase(name, { template } = {}) {
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error("TEST_PG_URL is not set: run bench/run.sh");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = adminUrl.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const stamp = () => new Date().toISOString().slice(0, 16).replace("T", " ");
export const machine = () =>
  `${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`;

/** Appends table rows (already formatted `| … |` lines) to bench/RESULTS.md. */
export function appendResults(lines) {
  if (profiling.length) {
    console.log("(profiled run: figures not added to RESULTS.md)");
    return;
  }
  fs.appendFileSync(path.join(ROOT, "bench/RESULTS.md"), `${lines.join("\n")}\n`);
}
