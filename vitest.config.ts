import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { TEST_NODE_FLAGS } from "./tests/support/node-flags.ts";

export const alias = {
  "@": path.resolve(import.meta.dirname),
  // `server-only` throws outside React Server Components; tests import server modules directly.
  "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
};

/**
 * HTTP test files about one database's own behaviour, run in that database's suite only. Every
 * other file runs in both: on the embedded database, then on PostgreSQL (each server a test starts
 * included: tests/support/harness.ts). db-outage stops and starts a PostgreSQL server of its own
 * under a running Crewdeck: the embedded database lives inside the server's process and cannot go
 * away on its own, and the test uses nothing of the suite's, so the embedded suite would only run
 * the same PostgreSQL test again.
 */
export const POSTGRES_ONLY = ["db-outage"].map((name) => `tests/http/${name}.test.ts`);

/** The unit tests that run a worker over a fresh database (engine runs, leases, MCP servers). */
export const WORKER_TESTS = [
  "tests/unit/engine.test.ts",
  "tests/unit/engine-*.test.ts",
  "tests/unit/lease-renewal-race.test.ts",
  "tests/unit/mcp-redaction.test.ts",
];

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...WORKER_TESTS],
          environment: "node",
          // Files share their worker processes: a fresh process per file cost each one Node's
          // start and every package's import again, a third of the unit tests' CPU. What a file
          // could leave behind for the next is undone before each (tests/support/fresh-file.ts).
          isolate: false,
          setupFiles: ["tests/support/fresh-file.ts"],
          // Each file opens its embedded databases afresh: see TEST_NODE_FLAGS.
          execArgv: TEST_NODE_FLAGS,
          // Hang guards sized for a loaded 2-core machine: npm test runs suites side by side.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "unit-workers",
          // A run's worker may still be finishing a step as its file ends: each file in a process
          // of its own, so nothing it started goes on beside the next file.
          include: WORKER_TESTS,
          environment: "node",
          execArgv: TEST_NODE_FLAGS,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "http",
          include: ["tests/http/**/*.test.ts"],
          exclude: [
            ...configDefaults.exclude,
            // npm test names the database of each suite; a run that names none runs every file.
            ...(process.env.TEST_DB === "embedded" ? POSTGRES_ONLY : []),
          ],
          environment: "node",
          execArgv: TEST_NODE_FLAGS,
          globalSetup: ["tests/http/global-setup.ts"],
          setupFiles: ["tests/support/identity-encoding.ts"],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // One server per suite run; files share it, so run them one after another.
          fileParallelism: false,
          // In one test process: a fresh one per file cost a start and the harness's imports 55
          // times. The files share no module state: each starts and stops what it uses.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "chaos",
          include: ["tests/chaos/**/*.test.ts"],
          environment: "node",
          execArgv: TEST_NODE_FLAGS,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
