import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lockPath, readLiveLock } from "@/lib/db/embedded-lock";

// The embedded database lock, between real processes: a stale file never blocks a start (its
// PID now someone else's, or a killed holder not yet reaped), and of two processes starting at
// once exactly one gets the database while the other is told why not.
const ROOT = path.resolve(import.meta.dirname, "../..");
const HOLDER = path.join(ROOT, "tests/support/lock-holder.ts");
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function dataDir() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-lock-"));
  dirs.push(d);
  return d;
}

/** Runs `command` (a shell line, HOLDER standing for the holder) and returns its first line. */
function start(command: string) {
  const child = spawn(
    "sh",
    ["-c", command.replace("HOLDER", `"${process.execPath}" --import tsx "${HOLDER}"`)],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.push(child);
  const line = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once("exit", () => reject(new Error(`exited without a word: ${out}`)));
  });
  return { child, line };
}

const pidOf = (line: string) => Number(/^\w+ (\d+)/.exec(line)?.[1]);

function processState(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return "gone";
  }
}

describe("the embedded database lock", () => {
  it("a lock file naming a live but unrelated process (PID reused) does not block a start", async () => {
    for (const pid of [1, process.pid]) {
      const dir = dataDir();
      fs.writeFileSync(lockPath(dir), JSON.stringify({ pid, port: 1 }));
      expect(readLiveLock(dir)).toBeUndefined();
      const { child, line } = start(`exec HOLDER "${dir}"`);
      const said = await line;
      expect(said).toMatch(/^won /);
      // And the CLI tools now find the new holder, with its port.
      expect(readLiveLock(dir)).toEqual(expect.objectContaining({ pid: pidOf(said), port: 4321 }));
      child.kill("SIGKILL");
    }
  });

  it("two processes opening the same DATA_DIR at once: exactly one wins, the other is told why", async () => {
    const dir = dataDir();
    const said = await Promise.all([
      start(`exec HOLDER "${dir}"`).line,
      start(`exec HOLDER "${dir}"`).line,
    ]);
    const won = said.filter((s) => s.startsWith("won "));
    const refused = said.filter((s) => s.startsWith("refused "));
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain(`The embedded database in ${dir} is in use by`);
    expect(refused[0]).toContain("Stop that process, use another DATA_DIR, or set DATABASE_URL");
  });

  it("starts at once after its holder was SIGKILLed, even before the dead holder is reaped", async () => {
    const dir = dataDir();
    // The holder's parent (`sleep`, after exec) never reaps it: once killed it stays a zombie,
    // its PID still "alive" to kill(pid, 0), as when a supervisor is slow to notice.
    const first = start(`HOLDER "${dir}" & exec sleep 600`);
    const pid = pidOf(await first.line);
    process.kill(pid, "SIGKILL");
    while (processState(pid) !== "Z") await new Promise((r) => setTimeout(r, 20));

    const second = start(`exec HOLDER "${dir}"`);
    expect(await second.line).toMatch(/^won /);
    second.child.kill("SIGKILL");
    first.child.kill("SIGKILL");
  });
});
