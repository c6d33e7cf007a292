import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

// The test servers' code cache (tests/support/compile-cache.cjs): a second process runs from the
// first one's cache, a changed file never runs its old code (even at the same length, which is
// all V8's own check compares), and a module with an `import()` still imports.
const PRELOAD = path.resolve(import.meta.dirname, "../support/compile-cache.cjs");
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "compile-cache-"));
  fs.mkdirSync(path.join(dir, ".next"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const write = (name: string, source: string) => fs.writeFileSync(path.join(dir, name), source);
const cached = () => fs.readdirSync(path.join(dir, ".next/compile-cache"));
function run(script: string) {
  const res = spawnSync(process.execPath, ["--require", PRELOAD, "-e", script], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(res.stderr.replace(/.*ExperimentalWarning.*\n|.*--trace-warnings.*\n/g, "")).toBe("");
  return res.stdout.trim();
}

it("runs a module from the cache its first load wrote, as it ran before", () => {
  write("b.js", "exports.twice = (n) => n * 2;");
  write(
    "a.js",
    "const { twice } = require('./b.js');\nmodule.exports = twice(21) + ':' + __filename;",
  );
  const first = run("console.log(require('./a.js'))");
  expect(first).toBe(`42:${path.join(dir, "a.js")}`);
  expect(cached()).toHaveLength(2);
  const stamp = cached().map((f) => fs.statSync(path.join(dir, ".next/compile-cache", f)).mtimeMs);
  expect(run("console.log(require('./a.js'))")).toBe(first);
  // Taken as it was: nothing rejected, so nothing written again.
  expect(
    cached().map((f) => fs.statSync(path.join(dir, ".next/compile-cache", f)).mtimeMs),
  ).toEqual(stamp);
});

it("never runs a changed file's old code, even when its length is the same", () => {
  write("a.js", "module.exports = 'old';");
  expect(run("console.log(require('./a.js'))")).toBe("old");
  write("a.js", "module.exports = 'new';");
  expect(run("console.log(require('./a.js'))")).toBe("new");
});

it("leaves a module with an import() to Node, whose dynamic import still works", () => {
  write("a.js", "module.exports = () => import('node:path').then((m) => m.sep);");
  const script = "require('./a.js')().then((sep) => console.log(sep))";
  expect(run(script)).toBe("/");
  expect(run(script)).toBe("/");
  expect(cached()).toEqual([]);
});

it("does nothing where there is no build", () => {
  fs.rmSync(path.join(dir, ".next"), { recursive: true });
  write("a.js", "module.exports = 1;");
  expect(run("console.log(require('./a.js'))")).toBe("1");
  expect(fs.existsSync(path.join(dir, ".next"))).toBe(false);
});
