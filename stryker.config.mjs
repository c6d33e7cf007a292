// Mutation testing of the domain's core: runs, reviews and the engine. `npm run test:mutation`
// (not part of `npm test`: it takes long). The last scores are in docs/mutation.md.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: ["lib/runs/**/*.ts", "lib/reviews/**/*.ts", "lib/engine/**/*.ts", "!lib/**/*.d.ts"],
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
  incrementalFile: "reports/stryker-incremental.json",
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // A loaded machine makes tests slow, not endless.
  timeoutMS: 30_000,
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
