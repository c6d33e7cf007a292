import fs from "node:fs";

// Mutation testing of every folder of lib/. `npm run test:mutation` (not part of `npm test`: the
// whole of lib/ takes hours). The last scores are in docs/mutation.md.
// MUTATION_FOLDER=runs (any folder of lib/) mutates one folder, with its own incremental file.
const FOLDERS = fs
  .readdirSync("lib", { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const only = process.env.MUTATION_FOLDER;
if (only && !FOLDERS.includes(only)) throw new Error(`MUTATION_FOLDER is one of ${FOLDERS}`);
const name = only ?? "all";

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: [...(only ? [only] : FOLDERS).map((f) => `lib/${f}/**/*.ts`)],
  // Strings here are messages and SQL: a changed message is no bug, and a broken statement fails
  // every test that reaches it. Each would cost a run of the tests that cover it.
  mutator: { excludedMutations: ["StringLiteral"] },
  coverageAnalysis: "perTest",
  // Mutants of module-level code (schemas, column lists) need every test file reloaded each:
  // about nine tenths of the time for a third of the mutants. The rest are what decides.
  ignoreStatic: true,
  // One test process: the machine's cores are shared, and the tests open embedded databases.
  concurrency: 1,
  // Only mutants in changed code, or covered by changed tests, run again; the file is committed.
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${name}.json`,
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // Room for a loaded machine; a mutant that loops for ever costs this much each time.
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 30,
  // Stryker rewrites tsconfig.json's extends/references for its sandbox with TypeScript's JS API,
  // which TypeScript 7 no longer has; ours has neither, so the rewrite is skipped (no such file).
  tsconfigFile: "tsconfig.sandbox-rewrite-skipped.json",
  ignorePatterns: [
    ".next",
    ".data",
    "bench/.runs",
    "test-results",
    "playwright-report",
    "coverage",
  ],
};
