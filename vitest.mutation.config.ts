import { defineConfig } from "vitest/config";
import { alias, WORKER_TESTS } from "./vitest.config";

// The unit project alone, for mutation testing (stryker.config.mjs): the http and chaos projects
// start servers and processes, which a run per mutant cannot afford. The unit tests that run a
// worker over a fresh database (seconds of set-up, paid again for each mutant they cover) are in
// for lib/engine, most of which nothing else reaches; MUTATION_ALL_UNIT_TESTS=1 puts them in for
// any folder (a run of hours).
const withWorkers =
  process.env.MUTATION_FOLDER === "engine" || process.env.MUTATION_ALL_UNIT_TESTS === "1";

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    exclude: withWorkers ? [] : WORKER_TESTS,
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
