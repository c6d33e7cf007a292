import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { TEST_NODE_FLAGS, TEST_SERVER_FLAGS } from "./node-flags";
import { ensureTemplate, seedDataDir } from "./pglite-template";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const FIXTURE_CREWS = path.join(ROOT, "tests/fixtures/crews");
export const TEST_CREW_TOKEN = "test-org-token-0123456789abcdef";
export const TEST_INTEGRATION_TOKEN = "test-integration-token-0123456789";
export const TEST_ADMIN = { email: "admin@example.com", password: "admin password 123" };

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

// Removed when this test process exits (its servers are killed by then): a suite's databases
// and files would otherwise pile up in the temporary folder, run after run.
const madeDirs: string[] = [];
process.once("exit", () => {
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `crewdeck-${prefix}-`));
  madeDirs.push(dir);
  return dir;
}

export function ensureBuild() {
  if (fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) return;
  const res = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"],
    { cwd: ROOT, stdio: "inherit" },
  );
  if (res.status !== 0) throw new Error("next build failed");
}

export type Proc = {
  proc: ChildProcess;
  output: () => string;
  kill: (signal?: NodeJS.Signals) => Promise<void>;
};

function track(proc: ChildProcess, name: string): Proc {
  let out = "";
  const append = (d: Buffer) => {
    out += d.toString();
    if (process.env.CREWDECK_TEST_VERBOSE) process.stderr.write(`[${name}] ${d}`);
  };
  proc.stdout?.on("data", append);
  proc.stderr?.on("data", append);
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return {
    proc,
    output: () => out,
    kill: async (signal = "SIGTERM") => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

async function waitFor(p: Proc, pattern: RegExp, timeoutMs: number) {
  const start = Date.now();
  while (!pattern.test(p.output())) {
    if (p.proc.exitCode !== null) throw new Error(`process exited early:\n${p.output()}`);
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${pattern}:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type ServerEnv = Record<string, string | undefined>;

// The PostgreSQL suite runs every server a test starts on PostgreSQL, not only the suite's own:
// a test that names no database (no DATABASE_URL key at all) gets a fresh one of TEST_PG_URL's
// server, one per DATA_DIR, so a server started again on its DATA_DIR finds its data, and the
// CLIs a test runs with that DATA_DIR open the same database. Migrated already, as the embedded
// suite's copies of its template are (a server's start: 1.5-1.8 CPU-s instead of 2.0).
const suiteDatabases = new Map<string, Promise<string | undefined>>();

async function onSuiteDatabase(env: ServerEnv, { create = false } = {}): Promise<ServerEnv> {
  if (dbMode() !== "postgres" || "DATABASE_URL" in env || !env.DATA_DIR) return env;
  let url = suiteDatabases.get(env.DATA_DIR);
  if (!url && !create) return env;
  if (!url) {
    url = freshPostgresDatabase({ migrated: true });
    suiteDatabases.set(env.DATA_DIR, url);
  }
  const DATABASE_URL = await url;
  if (!DATABASE_URL)
    throw new Error("TEST_DB=postgres needs TEST_PG_URL (scripts/test.sh sets it)");
  return { ...env, DATABASE_URL };
}

/**
 * `env` with the database of a server a test starts: the suite's kind (see onSuiteDatabase), and
 * on the embedded database a fresh DATA_DIR as a copy of the migrated template.
 */
export async function withTestDatabase(given: ServerEnv): Promise<ServerEnv> {
  const env = await onSuiteDatabase(given, { create: true });
  if (env.DATA_DIR && !env.DATABASE_URL) seedDataDir(await ensureTemplate(), env.DATA_DIR);
  return env;
}

/** `next start` on a free loopback port with the given environment; resolves once it is ready. */
export async function startServer(given: ServerEnv): Promise<Proc & { url: string; port: number }> {
  const env = await withTestDatabase(given);
  // A preset PORT lets the caller know the URL beforehand (PUBLIC_URL, for remote callbacks).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const proc = spawn(
    process.execPath,
    [
      ...TEST_SERVER_FLAGS,
      path.join(ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", PORT: String(port), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const p = track(proc, `web:${port}`);
  await waitFor(p, /Crewdeck is ready/, 180_000);
  return { ...p, url: `http://127.0.0.1:${port}`, port };
}

const NPM_SCRIPTS: Record<string, string> = JSON.parse(
  fs.readFileSync(path.join(ROOT, "package.json"), "utf8"),
).scripts;

/** Node's arguments for one of the project's commands: what its `npm run` script runs. */
export function cliArgs(
  script: "token" | "worker" | "secrets:reseal" | "audit:verify",
  ...args: string[]
) {
  const [program, ...rest] = (NPM_SCRIPTS[script] ?? "").split(" ");
  if (program !== "node") throw new Error(`npm run ${script} is not a node command line`);
  return [...rest, ...args];
}

/** `npm run worker`'s program, on its own. */
export async function startWorkerProcess(given: ServerEnv): Promise<Proc> {
  const env = await onSuiteDatabase(given);
  const proc = spawn(process.execPath, [...TEST_NODE_FLAGS, ...cliArgs("worker")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const p = track(proc, "worker");
  await waitFor(p, /Worker .* running/, 120_000);
  return p;
}

/**
 * Runs `npm run token -- …` (the real CLI) and returns the printed token, if any. Asynchronous on
 * purpose: a test process blocked for seconds lets its idle keep-alive sockets go stale.
 */
export async function tokenCli(args: string[], env: ServerEnv) {
  const res = await runNode(cliArgs("token", ...args), env);
  if (res.status !== 0)
    throw new Error(`token CLI failed (${res.status}): ${res.stderr}${res.stdout}`);
  const token = /^(cd[oui]_\S+)$/m.exec(res.stdout)?.[1];
  const id = /id ([0-9a-f-]{36})/.exec(res.stdout)?.[1];
  return { stdout: res.stdout, token, id };
}

/** A Node program of the project's, run to its end without blocking this process. */
export async function runNode(
  args: string[],
  given: ServerEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = await onSuiteDatabase(given);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...TEST_NODE_FLAGS, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    proc.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    proc.on("error", reject);
    proc.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** A fresh database on the PostgreSQL server named by TEST_PG_URL (started by scripts/test.sh). */
/**
 * A new database on TEST_PG_URL's server (undefined without one). Empty, for a server to migrate
 * at its start as it would in production; or, with `migrated`, a copy of a template migrated once
 * per server and version of the migrations (a unit test's database: no need to watch 31
 * migrations run again each time).
 */
export async function freshPostgresDatabase({
  migrated = false,
} = {}): Promise<string | undefined> {
  const admin = process.env.TEST_PG_URL;
  if (!admin) return undefined;
  const { default: pg } = await import("pg");
  const name = `crewdeck_${crypto.randomBytes(4).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const template = migrated ? await migratedTemplate(client, admin) : undefined;
    await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  } finally {
    await client.end();
  }
  return withDatabase(admin, name);
}

function withDatabase(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The migrated template's name, made now (once, under a lock: workers race) if missing. */
async function migratedTemplate(client: import("pg").Client, admin: string) {
  const key = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(ROOT, "lib/db/migrations.ts")))
    .digest("hex")
    .slice(0, 12);
  const name = `crewdeck_template_${key}`;
  await client.query("SELECT pg_advisory_lock(4242)");
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (rowCount) return name;
    // Made under another name and renamed when whole: a failure leaves no half template.
    const building = `${name}_building`;
    await client.query(`DROP DATABASE IF EXISTS ${building}`);
    await client.query(`CREATE DATABASE ${building}`);
    const { openPostgres } = await import("@/lib/db/open");
    const { migrate } = await import("@/lib/db/migrations");
    const db = await openPostgres(withDatabase(admin, building));
    await migrate(db);
    await db.close();
    await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await client.query("SELECT pg_advisory_unlock(4242)");
  }
}

export function dbMode(): "embedded" | "postgres" {
  return process.env.TEST_DB === "postgres" ? "postgres" : "embedded";
}

/**
 * A PostgreSQL server of the test's own (scripts/pg-test-server.sh), which the test may stop and
 * start again without disturbing the suite's shared one.
 */
export function ownPostgres() {
  const res = spawnSync(
    "bash",
    [
      "-c",
      'source scripts/pg-test-server.sh && echo "$TEST_PG_URL $PG_TEST_DIR $PG_TEST_PORT $PGBIN"',
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (res.status !== 0) throw new Error(`cannot start PostgreSQL: ${res.stderr}`);
  const [url, dir, port, bin] = res.stdout.trim().split(/\s+/) as [string, string, string, string];
  const asPg = (args: string[]) => {
    const cmd =
      process.getuid?.() === 0
        ? ["runuser", ["-u", "postgres", "--", `${bin}/pg_ctl`, ...args]]
        : [`${bin}/pg_ctl`, args];
    const r = spawnSync(cmd[0] as string, cmd[1] as string[], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${r.stderr}`);
  };
  return {
    url,
    stop: () => asPg(["-D", `${dir}/data`, "-m", "fast", "stop"]),
    /** Like a crash: connections are cut mid-query, mid-transaction, without a goodbye. */
    stopImmediately: () => asPg(["-D", `${dir}/data`, "-m", "immediate", "stop"]),
    start: () =>
      asPg([
        "-D",
        `${dir}/data`,
        "-l",
        `${dir}/server.log`,
        "-w",
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
        "start",
      ]),
    destroy: () => {
      try {
        asPg(["-D", `${dir}/data`, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
