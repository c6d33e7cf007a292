import fs from "node:fs";
import path from "node:path";

// PGlite is one process's database: a lock file in DATA_DIR stops a second process from opening
// the same files (and tells CLI tools which server to talk to instead).
export type LockInfo = { pid: number; port?: number };

export function lockPath(dataDir: string) {
  return path.join(dataDir, "embedded.lock");
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readLiveLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
    return info.pid !== process.pid && isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

export function acquireEmbeddedLock(dataDir: string, port?: number) {
  const holder = readLiveLock(dataDir);
  if (holder) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder.pid}. ` +
        "Stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server.",
    );
  }
  fs.writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, port }));
  const release = () => {
    try {
      const info = JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")) as LockInfo;
      if (info.pid === process.pid) fs.unlinkSync(lockPath(dataDir));
    } catch {
      // already gone
    }
  };
  process.once("exit", release);
}
