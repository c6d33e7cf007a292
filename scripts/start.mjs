// `npm start`: build when there is no build (or the sources are newer), then serve. Never under a
// server that runs from the build (scripts/start-guard.mjs).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { decide, holdBuildLock, liveServers, recordServer } from "./start-guard.mjs";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, ".next", "BUILD_ID");
const SOURCES = [
  "app",
  "lib",
  "components",
  "public",
  "instrumentation.ts",
  "next.config.js",
  "package-lock.json",
];

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(p)
    .reduce((max, name) => Math.max(max, newestMtime(path.join(p, name))), stat.mtimeMs);
}

const newest = Math.max(...SOURCES.map((s) => newestMtime(path.join(root, s))));
// Next.js reports usage to its vendor unless told not to; a self-hosted service does not call
// home on its own (set NEXT_TELEMETRY_DISABLED=0 to allow it).
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

// From the decision until this server is recorded, no other `npm start` decides or builds.
const releaseLock = await holdBuildLock(root, {
  onWait: (other) =>
    console.log(`Another npm start PID ${other.pid} is building or starting: waiting for it…`),
});
process.once("exit", releaseLock);
const verdict = decide({
  // Read once the lock is ours: the npm start waited for may just have built.
  built: fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0,
  newest,
  // NO_BUILD=1 serves the build there is as it is (an image built ahead, tests beside a server).
  mayBuild: process.env.NO_BUILD !== "1",
  servers: liveServers(root),
  distDir: path.dirname(buildId),
});
if (verdict.kind === "refuse") {
  console.error(verdict.message);
  process.exit(1);
}
if (verdict.kind === "build") {
  console.log(verdict.note);
  const res = spawnSync(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "build"],
    { cwd: root, stdio: "inherit" },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
  // The commands' bundles too, as `npm run build` makes them. The server does not need them: if
  // they cannot be made, it serves all the same, and a command says what it lacks when run.
  const cli = spawnSync(process.execPath, [path.join(root, "scripts/cli-bundle.mjs")], {
    cwd: root,
    stdio: "inherit",
  });
  if (cli.status !== 0) console.error("The commands (npm run token, worker, …) are not bundled.");
}

const port = process.env.PORT || "3000";
// HOST=127.0.0.1 serves on loopback only (e.g. until first-run setup is done, or behind a proxy on
// the same machine); unset, Next listens on every interface.
const host = process.env.HOST ? ["-H", process.env.HOST] : [];
// The server hands its banner (crews' URLs, setup link) over IPC; it is printed once the server
// answers, so it is the last thing on the console and not lost among the framework's lines.
const child = spawn(
  process.execPath,
  [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", port, ...host],
  {
    cwd: root,
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, PORT: port, CREWDECK_BANNER_TO_PARENT: "1" },
  },
);
// Recorded until it ends: a later `npm start` will not build under it.
if (child.pid) process.once("exit", recordServer(root, child.pid, port));
releaseLock();
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

const banner = new Promise((resolve) =>
  child.on("message", (msg) => {
    if (msg && typeof msg.crewdeckBanner === "string") resolve(msg.crewdeckBanner);
  }),
);
// Loopback when listening on every interface; otherwise the address given.
const probeHost = (() => {
  const h = process.env.HOST;
  if (!h || h === "0.0.0.0") return "127.0.0.1";
  if (h === "::") return "[::1]";
  return h.includes(":") ? `[${h}]` : h;
})();

async function answers() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://${probeHost}:${port}/api/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

Promise.all([banner, answers()]).then(([text]) => console.log(text));
