import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { errorCode } from "@/lib/errors";
import { fieldOf } from "@/lib/util/field";

// PGlite is one process's database: a lock in DATA_DIR stops a second process from opening the
// same files (two would corrupt them). The lock file also tells CLI tools which server holds the
// database, so they talk to it instead (scripts/token.ts).
//
// The lock is an OS file lock (flock), not "is the PID in the file alive": the kernel drops it
// the moment its holder dies, however it dies, so a stale file never blocks a start (a reused
// PID after a reboot or in a container, a killed process not yet reaped), and two processes
// starting at once cannot both win. Node has no flock of its own and native addons are out, so
// a helper holds it: util-linux's `flock` runs `cat` with the lock held, and `cat` reads a pipe
// from us. When we exit, by any means, the pipe closes, `cat` ends and the lock goes with it.
//
// Without `flock` (macOS, BusyBox-less images), an exclusive create of the lock file is used:
// atomic against a concurrent start, and a file left by a dead process is taken over when its
// PID is gone or belongs to a process started at another time (Linux /proc) — weaker, but no
// worse than before.
const lockInfoSchema = z.object({
  pid: z.number(),
  port: z.number().optional(),
  started: z.string().optional(),
});
export type LockInfo = z.infer<typeof lockInfoSchema>;

const WAIT_SECONDS = 3; // a holder killed a moment ago: its helper is still closing

export function lockPath(dataDir: string) {
  return path.join(dataDir, "embedded.lock");
}

let flockAvailable: boolean | undefined;
function hasFlock() {
  flockAvailable ??= spawnSync("flock", ["--version"], { stdio: "ignore" }).status === 0;
  return flockAvailable;
}

function readInfo(dataDir: string): LockInfo | undefined {
  try {
    const parsed = lockInfoSchema.safeParse(JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** When a process started (Linux), so a reused PID is told apart from the lock's holder. */
function startTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22, counted after the command name (which may contain spaces) in parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const bootId = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return fields[2] === "Z" ? undefined : `${bootId}/${fields[19]}`;
  } catch {
    return undefined;
  }
}

function pidHolds(info: LockInfo) {
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    if (errorCode(err) !== "EPERM") return false;
  }
  const started = startTime(info.pid);
  // Where /proc tells, the process must be the one that wrote the file (and not a zombie).
  return info.started === undefined || started === undefined || started === info.started;
}

/** The server holding the embedded database in `dataDir`, if one does. */
export function readLiveLock(dataDir: string): LockInfo | undefined {
  const info = readInfo(dataDir);
  if (!info || info.pid === process.pid) return undefined;
  if (hasFlock()) {
    // Held if a shared lock cannot be had right now.
    const probe = spawnSync("flock", ["--shared", "--nonblock", lockPath(dataDir), "true"]);
    return probe.status === 0 ? undefined : info;
  }
  return pidHolds(info) ? info : undefined;
}

function refusal(dataDir: string, holder: LockInfo | undefined) {
  const who = holder
    ? `process ${holder.pid}${holder.port ? ` (port ${holder.port})` : ""}`
    : "another process";
  return new Error(
    `The embedded database in ${dataDir} is in use by ${who}. ` +
      "Stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server. " +
      `(The lock is ${lockPath(dataDir)}; it is released when its holder exits, so there is no file to delete.)`,
  );
}

/** Holds the embedded database of `dataDir` for this process, or throws saying who has it. */
export async function acquireEmbeddedLock(dataDir: string, port?: number): Promise<void> {
  const info: LockInfo = { pid: process.pid, port, started: startTime(process.pid) };
  if (hasFlock()) await holdWithFlock(dataDir, info);
  else holdWithExclusiveCreate(dataDir, info);
}

async function holdWithFlock(dataDir: string, info: LockInfo) {
  const file = lockPath(dataDir);
  const helper: ChildProcess = spawn(
    "flock",
    ["--exclusive", "--wait", String(WAIT_SECONDS), file, "sh", "-c", "echo locked; exec cat"],
    { stdio: ["pipe", "pipe", "ignore"] },
  );
  const locked = await new Promise<boolean>((resolve) => {
    helper.stdout?.once("data", () => resolve(true));
    helper.once("exit", () => resolve(false));
    helper.once("error", () => resolve(false));
  });
  if (!locked) throw refusal(dataDir, readInfo(dataDir));
  // Ours now: say who we are (the file's content is information, the lock is the kernel's).
  fs.writeFileSync(file, JSON.stringify(info));
  // The helper lives as long as we do, but must not keep us alive.
  helper.unref();
  // Its pipes are sockets, which can be unref'd too (Node's types say only Writable/Readable).
  for (const pipe of [helper.stdin, helper.stdout]) {
    const unref = fieldOf(pipe, "unref");
    if (typeof unref === "function") unref.call(pipe);
  }
  let exiting = false;
  helper.once("exit", () => {
    if (!exiting)
      console.error(
        `[crewdeck] the lock helper for ${file} ended: the embedded database is unguarded`,
      );
  });
  process.once("exit", () => {
    exiting = true;
    helper.kill();
  });
}

function holdWithExclusiveCreate(dataDir: string, info: LockInfo) {
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx" });
      process.once("exit", () => {
        if (readInfo(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
      });
      return;
    } catch (err) {
      if (errorCode(err) !== "EEXIST") throw err;
    }
    const holder = readInfo(dataDir);
    if (holder && pidHolds(holder)) throw refusal(dataDir, holder);
    // Stale: move it aside (atomic; of two racers only one moves this file) and try again.
    try {
      fs.renameSync(file, `${file}.stale-${process.pid}`);
      fs.rmSync(`${file}.stale-${process.pid}`, { force: true });
    } catch {
      // another process moved it first
    }
  }
  throw refusal(dataDir, readInfo(dataDir));
}
