import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CACHE = path.join(ROOT, "node_modules/.cache/crewdeck-cli");
const SOURCE = path.join(ROOT, "scripts/token.ts");
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=react-server", "scripts/cli.mjs", ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
const tokenBundles = () => fs.readdirSync(CACHE).filter((f) => /^token-\w+\.mjs$/.test(f));

// The commands behind `npm run token|worker|…` (scripts/cli.mjs) run as bundles made on demand.
describe("the command launcher", () => {
  it("names the commands when given another", () => {
    const r = cli("tokens");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("token | worker | reseal-secrets | audit-verify");
  });

  it("runs the command with its own arguments, and bundles it again once a source changes", () => {
    const first = cli("token", "frobnicate");
    expect(first.stdout + first.stderr).toContain("npm run token -- list");
    const [before] = tokenBundles();
    // An older copy of a source put back, as `rsync -a` or an unpacked archive would: its time
    // moves back, not forward, and the bundle is made again all the same.
    const { atime, mtime } = fs.statSync(SOURCE);
    try {
      fs.utimesSync(SOURCE, atime, new Date(mtime.getTime() - 86_400_000));
      const again = cli("token", "frobnicate");
      expect(again.stdout + again.stderr).toContain("npm run token -- list");
      const after = tokenBundles();
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(before);
    } finally {
      fs.utimesSync(SOURCE, atime, mtime);
    }
  });
});
