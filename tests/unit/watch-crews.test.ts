import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchCrews } from "@/lib/crew/watch-crews";
import { until } from "../support/api";

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-watch-"));
  made.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe("watchCrews", () => {
  it("calls back after files change, in folders created after the watch began", async () => {
    const dir = tmp();
    let changes = 0;
    const watcher = watchCrews({ dir, onChange: () => changes++, debounceMs: 20 });
    try {
      fs.mkdirSync(path.join(dir, "new-crew", "config"), { recursive: true });
      fs.writeFileSync(path.join(dir, "new-crew", "config", "agents.yaml"), "a: 1\n");
      await until(
        "a first change",
        () => changes,
        (n) => n > 0,
      );
      const seen = changes;
      fs.writeFileSync(path.join(dir, "new-crew", "config", "agents.yaml"), "a: 2\n");
      await until(
        "a change deeper down",
        () => changes,
        (n) => n > seen,
      );
    } finally {
      watcher.close();
    }
  });

  it("a folder that cannot be watched is logged, not thrown", () => {
    const logged: string[] = [];
    const watcher = watchCrews({
      dir: path.join(tmp(), "missing"),
      onChange: () => {},
      log: (m) => logged.push(m),
    });
    expect(logged).toEqual([expect.stringMatching(/^\[crewdeck\] cannot watch .*missing/)]);
    watcher.close();
  });

  it("a reload that throws is logged, and the watch goes on", async () => {
    const dir = tmp();
    const logged: string[] = [];
    let calls = 0;
    const watcher = watchCrews({
      dir,
      debounceMs: 20,
      log: (m) => logged.push(m),
      onChange: () => {
        calls++;
        if (calls === 1) throw new Error("boom");
      },
    });
    try {
      fs.writeFileSync(path.join(dir, "one"), "1");
      await until(
        "the failed reload logged",
        () => logged,
        (l) => l.length > 0,
      );
      expect(logged[0]).toBe("[crewdeck] reloading crews failed: boom");
      fs.writeFileSync(path.join(dir, "two"), "2");
      await until(
        "a later reload",
        () => calls,
        (n) => n > 1,
      );
    } finally {
      watcher.close();
    }
  });
});
