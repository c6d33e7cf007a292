import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BUNDLE = path.join(ROOT, "node_modules/.cache/crewdeck-cli/token.mjs");
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ["--conditions=react-server", "scripts/cli.mjs", ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });

// The commands behind `npm run token|worker|…` (scripts/cli.mjs) run as bundles made on demand.
describe("the command launcher", () => {
  it("names the commands when given another", () => {
    const r = cli("tokens");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("token | worker | reseal-secrets | audit-verify");
  });

  it("runs the command with its own arguments, and makes the bundle again once it is stale", () => {
    const first = cli("token", "frobnicate");
    expect(first.status, first.stderr).not.toBe(0);
    expect(first.stdout + first.stderr).toContain("npm run token -- list");
    // Older than every source: as if lib/ had changed since.
    fs.utimesSync(BUNDLE, 1, 1);
    const again = cli("token", "frobnicate");
    expect(again.stdout + again.stderr).toContain("npm run token -- list");
    expect(fs.statSync(BUNDLE).mtimeMs).toBeGreaterThan(1000);
  });
});
