import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  buildLockPath,
  decide,
  type Holder,
  liveServers,
  processStart,
  recordServer,
  tryBuildLock,
} from "../../scripts/start-guard.mjs";

// `npm start` (scripts/start.mjs) rebuilds `.next` when sources are newer than the build; a server
// running from that build then answers 500 on routes it had not loaded yet. It must refuse instead.
const ROOT = path.resolve(import.meta.dirname, "../..");
const started: ChildProcess[] = [];
const dirs: string[] = [];

const groups: number[] = [];

afterEach(async () => {
  // An npm start ends with the server it started (the stub's, here), whatever became of the test.
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // the group has ended
    }
  }
  await Promise.all(started.splice(0).map(end));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function end(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGKILL");
  await exited;
}

/** A long-lived process standing in for a server (or another `npm start`). */
function sleeper() {
  const proc = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e9)"], { stdio: "ignore" });
  started.push(proc);
  return proc;
}

/** The PID of a process that has ended. */
async function endedPid() {
  const proc = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => proc.once("exit", resolve));
  return proc.pid ?? 0;
}

// The Next.js binary start.mjs runs, replaced by one that notes each command in calls.log; its
// `start` stays up (as a server does) when STUB_STAY=1, and ends at once otherwise.
const STUB_NEXT = `
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(__dirname, "../../../..");
fs.appendFileSync(path.join(root, "calls.log"), process.argv[2] + "\\n");
if (process.argv[2] === "build") fs.writeFileSync(path.join(root, ".next/BUILD_ID"), "stub");
if (process.argv[2] === "start" && process.env.STUB_STAY === "1") setInterval(() => {}, 1e9);
`;

/** A folder laid out as the app is for start.mjs, whose sources are newer than its build. */
function staleApp() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-start-"));
  dirs.push(root);
  fs.mkdirSync(path.join(root, "scripts"));
  for (const file of ["start.mjs", "start-guard.mjs"])
    fs.copyFileSync(path.join(ROOT, "scripts", file), path.join(root, "scripts", file));
  fs.mkdirSync(path.join(root, "node_modules/next/dist/bin"), { recursive: true });
  fs.writeFileSync(path.join(root, "node_modules/next/dist/bin/next"), STUB_NEXT);
  fs.symlinkSync(path.join(ROOT, "node_modules/zod"), path.join(root, "node_modules/zod"));
  fs.mkdirSync(path.join(root, ".next"));
  const buildId = path.join(root, ".next/BUILD_ID");
  fs.writeFileSync(buildId, "old");
  const anHourAgo = new Date(Date.now() - 3_600_000);
  fs.utimesSync(buildId, anHourAgo, anHourAgo);
  fs.mkdirSync(path.join(root, "app"));
  fs.writeFileSync(path.join(root, "app/page.tsx"), "export default function Page() {}\n");
  return root;
}

const calls = (root: string) => {
  const file = path.join(root, "calls.log");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
};
const startEnv = (extra: Record<string, string> = {}) => {
  const { NO_BUILD: _, ...env } = process.env;
  // Port 1: start.mjs's readiness probe finds nothing there.
  return { ...env, PORT: "1", ...extra };
};
const holderOf = (pid: number): Holder => ({
  pid,
  started: processStart(pid),
  since: new Date().toISOString(),
});

/** Waits until `done`; throws if `proc` ends or `broken` holds first. */
async function until(what: string, done: () => boolean, proc: ChildProcess, broken = () => false) {
  while (!done()) {
    if (proc.exitCode !== null || broken())
      throw new Error(`npm start ended, or went on, before ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("npm start beside a running server", () => {
  it("refuses to rebuild, naming the server and what to do, and builds nothing", () => {
    const root = staleApp();
    const server = sleeper();
    recordServer(root, server.pid ?? 0, "3000");

    const res = spawnSync(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      env: startEnv(),
      encoding: "utf8",
      timeout: 30_000,
    });

    expect(res.status).toBe(1);
    expect(res.stderr).toContain(
      `Sources changed since the last build, but Crewdeck server PID ${server.pid} (port 3000, started `,
    );
    expect(res.stderr).toContain(`is serving this build from ${path.join(root, ".next")}`);
    expect(res.stderr).toContain("stop it first, then run npm start again");
    expect(res.stderr).toContain("NO_BUILD=1 npm start");
    expect(calls(root)).toEqual([]);
  });

  it("with NO_BUILD=1 serves the build there is beside it", () => {
    const root = staleApp();
    const server = sleeper();
    recordServer(root, server.pid ?? 0, "3000");

    const res = spawnSync(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      env: startEnv({ NO_BUILD: "1" }),
      encoding: "utf8",
      timeout: 30_000,
    });

    expect(res.status, res.stderr).toBe(0);
    expect(calls(root)).toEqual(["start"]);
  });

  it("waits for another npm start deciding, then builds, records its server until it ends", async () => {
    const root = staleApp();
    const other = sleeper();
    fs.mkdirSync(path.dirname(buildLockPath(root)), { recursive: true });
    fs.writeFileSync(buildLockPath(root), JSON.stringify(holderOf(other.pid ?? 0)));

    const proc = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      env: startEnv({ STUB_STAY: "1" }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    started.push(proc);
    if (proc.pid) groups.push(proc.pid);
    let out = "";
    proc.stdout?.on("data", (d) => (out += d));
    proc.stderr?.on("data", (d) => (out += d));
    // Nothing is built while the other decides.
    const built = () => calls(root).length > 0;
    await until("it waits", () => out.includes(`npm start PID ${other.pid}`), proc, built);

    await end(other);
    await until(
      "its server is recorded",
      () =>
        calls(root).length === 2 &&
        liveServers(root).length === 1 &&
        !fs.existsSync(buildLockPath(root)),
      proc,
    );
    expect(calls(root)).toEqual(["build", "start"]);
    const [server] = liveServers(root);
    expect(server?.pid).not.toBe(proc.pid);
    expect(server?.port).toBe("1");

    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGTERM");
    await exited;
    expect(liveServers(root)).toEqual([]);
    expect(fs.readdirSync(path.join(root, ".next/cache/crewdeck-start/servers"))).toEqual([]);
  });
});

describe("the record of running servers", () => {
  it("forgets servers that ended, or whose PID another process now has", async () => {
    const root = staleApp();
    const server = sleeper();
    recordServer(root, server.pid ?? 0, "3000");
    recordServer(root, await endedPid());
    // A PID reused by another process: its start time differs from the one recorded.
    const reused = sleeper();
    const dir = path.join(root, ".next/cache/crewdeck-start/servers");
    fs.writeFileSync(
      path.join(dir, `${reused.pid}.json`),
      JSON.stringify({ ...holderOf(reused.pid ?? 0), started: "another-boot/1" }),
    );

    expect(liveServers(root).map((s) => s.pid)).toEqual([server.pid]);
    expect(fs.readdirSync(dir)).toEqual([`${server.pid}.json`]);
  });
});

describe("the build lock", () => {
  it("is refused while its holder runs, taken over once it has ended, released by its owner", async () => {
    const root = staleApp();
    const other = sleeper();
    fs.mkdirSync(path.dirname(buildLockPath(root)), { recursive: true });
    fs.writeFileSync(buildLockPath(root), JSON.stringify(holderOf(other.pid ?? 0)));

    const refused = tryBuildLock(root);
    expect("holder" in refused && refused.holder.pid).toBe(other.pid);

    await end(other);
    const taken = tryBuildLock(root);
    expect("release" in taken).toBe(true);
    expect(JSON.parse(fs.readFileSync(buildLockPath(root), "utf8")).pid).toBe(process.pid);
    if ("release" in taken) taken.release();
    expect(fs.existsSync(buildLockPath(root))).toBe(false);
  });
});

describe("what npm start decides", () => {
  const server = { pid: 4321, port: "3000", since: "2025-01-02T10:02:00.000Z" };
  const base = { built: 100, newest: 200, mayBuild: true, servers: [], distDir: "/srv/app/.next" };

  it.each([
    ["a build as new as its sources", { newest: 100 }, "serve"],
    ["sources newer, no server", {}, "build"],
    ["no build, no server", { built: 0 }, "build"],
    ["sources newer, a server, NO_BUILD=1", { servers: [server], mayBuild: false }, "serve"],
    ["sources newer, a server", { servers: [server] }, "refuse"],
    ["no build, NO_BUILD=1", { built: 0, mayBuild: false }, "refuse"],
  ])("%s", (_, change, kind) => {
    expect(decide({ ...base, ...change }).kind).toBe(kind);
  });

  it("names every server running from the build", () => {
    const verdict = decide({ ...base, servers: [server, { pid: 99, since: server.since }] });
    expect(verdict.kind === "refuse" && verdict.message).toMatch(
      /^Sources changed since the last build, but Crewdeck servers PID 4321 \(port 3000, started \d{4}-\d\d-\d\d \d\d:\d\d\) and PID 99 \(started [^)]+\) are serving this build from \/srv\/app\/\.next: stop them first, then run npm start again — or run NO_BUILD=1 npm start to serve the current build beside them\.$/,
    );
  });
});
