import { defineConfig } from "vitest/config";
import { alias, WORKER_TESTS } from "./vitest.config";

// The unit project alone, for mutation testing (stryker.config.mjs): the http and chaos projects
// start servers and processes, which a run per mutant cannot afford. By default it also leaves out
// the unit tests that run a worker over a fresh database (seconds of set-up, paid again for each
// mutant they cover); MUTATION_ALL_UNIT_TESTS=1 puts them back, for a run that takes hours.

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    exclude: process.env.MUTATION_ALL_UNIT_TESTS === "1" ? [] : WORKER_TESTS,
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
