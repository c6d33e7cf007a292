// A V8 code cache for the CommonJS a test's `next start` loads: Node 20 has no
// module.enableCompileCache (Node 22 does). A suite starts dozens of servers from one build, and
// each compiled the same Next.js runtime and route chunks again. Here the first server to exit
// writes each file's code (with the functions it compiled lazily) to .next/compile-cache, and
// later ones start from it; `next build` empties .next, so the cache lives as long as its build.
// An entry is named by its file's name and source: another source never finds it, and V8 refuses
// one made by other flags or another V8 (cachedDataRejected), then the file compiles as usual.
// Loaded with `--require` (TEST_SERVER_FLAGS in tests/support/node-flags.ts); the product and the
// CLIs (ES modules) do not use it.
"use strict";
const crypto = require("node:crypto");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");

const BUILD = path.join(process.cwd(), ".next");
const DIR = path.join(BUILD, "compile-cache");

if (fs.existsSync(BUILD)) {
  fs.mkdirSync(DIR, { recursive: true });
  /** Scripts compiled without a usable cache: their code is written at exit. */
  const fresh = new Map();
  const keyOf = (filename, content) =>
    crypto.createHash("sha1").update(filename).update("\0").update(content).digest("hex");

  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileCached(content, filename) {
    // Only plain JavaScript files, and none with an `import()`: on Node 20 a script from a cache
    // made by another process loses its dynamic-import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_
    // MISSING), so those compile as Node does.
    if ((!filename.endsWith(".js") && !filename.endsWith(".cjs")) || content.includes("import("))
      return compile.call(this, content, filename);
    const file = path.join(DIR, `${keyOf(filename, content)}.bin`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {}
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // A syntax error (or anything V8 refuses) is reported by Node's own compile.
      return compile.call(this, content, filename);
    }
    if (!cachedData || script.cachedDataRejected) fresh.set(file, script);
    const fn = script.runInThisContext({ displayErrors: true });
    const dirname = path.dirname(filename);
    const require = makeRequire(this);
    return fn.call(this.exports, this.exports, require, this, filename, dirname);
  };

  // `require` as Node gives a module: resolve, cache, main and extensions included.
  const makeRequire = (mod) => {
    const require = (id) => mod.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    return require;
  };

  process.once("exit", () => {
    for (const [file, script] of fresh) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, file);
      } catch {}
    }
  });
}
