// What `npm start` may do to the build in `.next` while servers run from it. `next build` empties
// `.next` and writes it again, and a server loads each route's code from there the first time it is
// asked for (next.config.js: preloadEntriesOnStart), so a rebuild under a running server makes its
// routes answer 500 "Cannot find module". Hence: each server `npm start` launches is recorded while
// it runs; a build is refused while one is; and one `npm start` at a time goes from its decision to
// its recorded server (or refusal), under a lock, so two never build at once or start mid-build.
//
// Both live in `.next/cache/crewdeck-start/`: `next build` keeps `.next/cache`, so an outside build
// (`npx next build`) does not forget the servers either.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const Holder = z.object({
  pid: z.number().int().positive(),
  // When the process started (Linux: boot and clock ticks), to tell a reused PID apart.
  started: z.string().optional(),
  since: z.string(),
  port: z.string().optional(),
});

const stateDir = (root) => path.join(root, ".next", "cache", "crewdeck-start");
const serversDir = (root) => path.join(stateDir(root), "servers");
export const buildLockPath = (root) => path.join(stateDir(root), "build.lock");

const errorCode = (err) =>
  err && typeof err === "object" && "code" in err ? String(err.code) : undefined;

/** When a process started (Linux), or undefined where /proc cannot tell or it is a zombie. */
export function processStart(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22, counted after the command name (which may contain spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const bootId = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return fields[0] === "Z" ? undefined : `${bootId}/${fields[19]}`;
  } catch {
    return undefined;
  }
}

/** Whether the process a record names still runs: the same PID, and where /proc tells, the same start. */
function isRunning(holder) {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if (errorCode(err) !== "EPERM") return false;
  }
  const started = processStart(holder.pid);
  return holder.started === undefined || started === undefined || started === holder.started;
}

const recordOf = (pid, port) => ({
  pid,
  started: processStart(pid),
  since: new Date().toISOString(),
  ...(port ? { port } : {}),
});

function readHolder(file) {
  try {
    const parsed = Holder.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// Written aside and linked into place: a reader never sees half a record, and the link fails
// (EEXIST) when the name is taken, which makes it the lock's atomic test-and-set as well.
function placeRecord(file, record) {
  const aside = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(aside, JSON.stringify(record));
  try {
    fs.linkSync(aside, file);
    return true;
  } catch (err) {
    if (errorCode(err) !== "EEXIST") throw err;
    return false;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

/** Records server `pid` (listening on `port`) as serving the build; returns what forgets it. */
export function recordServer(root, pid, port) {
  const file = path.join(serversDir(root), `${pid}.json`);
  fs.rmSync(file, { force: true });
  placeRecord(file, recordOf(pid, port));
  return () => fs.rmSync(file, { force: true });
}

/** The recorded servers still running; the records of those that ended are removed. */
export function liveServers(root) {
  let names;
  try {
    names = fs.readdirSync(serversDir(root));
  } catch (err) {
    if (errorCode(err) === "ENOENT") return [];
    throw err;
  }
  const live = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const file = path.join(serversDir(root), name);
    const holder = readHolder(file);
    if (holder && isRunning(holder)) live.push(holder);
    else fs.rmSync(file, { force: true });
  }
  return live.sort((a, b) => a.pid - b.pid);
}

/**
 * Takes the lock for this process: `{ release }`, or `{ holder }` while another process that runs
 * holds it. A lock whose holder has ended is taken over.
 */
export function tryBuildLock(root) {
  const file = buildLockPath(root);
  const release = () => {
    if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  for (;;) {
    if (placeRecord(file, recordOf(process.pid))) return { release };
    const holder = readHolder(file);
    if (holder && isRunning(holder)) return { holder };
    // Stale: moved aside (atomic: of two racers one moves it), then looked at once more, in case
    // what was moved is a lock taken meanwhile, which goes back where it was.
    const aside = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, aside);
    } catch (err) {
      if (errorCode(err) === "ENOENT") continue; // another process moved it first
      throw err;
    }
    const moved = readHolder(aside);
    if (moved && isRunning(moved)) placeRecord(file, moved);
    fs.rmSync(aside, { force: true });
  }
}

/** Waits for the lock, saying once who holds it; resolves to its release function. */
export async function holdBuildLock(root, { onWait, pollMs = 1000 } = {}) {
  let told = false;
  for (;;) {
    const got = tryBuildLock(root);
    if (got.release) return got.release;
    if (!told) onWait?.(got.holder);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

const pad = (n) => String(n).padStart(2, "0");
function localTime(iso) {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
const describeServer = (s) =>
  `PID ${s.pid} (${s.port ? `port ${s.port}, ` : ""}started ${localTime(s.since)})`;

/**
 * What `npm start` does, from: `built` (BUILD_ID's time, 0 without a build), `newest` (the newest
 * source's time), `mayBuild` (not NO_BUILD=1), `servers` (liveServers) and `distDir` (for the
 * message). `{ kind: "serve" }`, `{ kind: "build", note }` or `{ kind: "refuse", message }`.
 */
export function decide({ built, newest, mayBuild, servers, distDir }) {
  if (!built && !mayBuild)
    return {
      kind: "refuse",
      message: "NO_BUILD=1 but there is no build: run `npx next build` first.",
    };
  if (!mayBuild || (built && newest <= built)) return { kind: "serve" };
  if (servers.length === 0)
    return {
      kind: "build",
      note: built
        ? "Sources changed since the last build: rebuilding…"
        : "No build yet: building (about a minute)…",
    };
  const one = servers.length === 1;
  const who = `Crewdeck ${one ? "server" : "servers"} ${servers.map(describeServer).join(" and ")} ${one ? "is" : "are"}`;
  const them = one ? "it" : "them";
  return {
    kind: "refuse",
    message: built
      ? `Sources changed since the last build, but ${who} serving this build from ${distDir}: ` +
        `stop ${them} first, then run npm start again — or run NO_BUILD=1 npm start to serve the ` +
        `current build beside ${them}.`
      : `There is no complete build in ${distDir}, but ${who} still running from it: ` +
        `stop ${them} first, then run npm start again.`,
  };
}
