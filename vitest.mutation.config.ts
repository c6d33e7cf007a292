import { defineConfig } from "vitest/config";
import { alias, WORKER_TESTS } from "./vitest.config";

// The unit project alone, for mutation testing (stryker.config.mjs): the http and chaos projects
// start servers and processes, which a run per mutant cannot afford. The unit tests that run a
// worker over a fresh database are in: without them most of lib/engine is reached by no test.
// MUTATION_FAST=1 leaves them out (seconds of set-up, paid again for each mutant they cover).

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    exclude: process.env.MUTATION_FAST === "1" ? WORKER_TESTS : [],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
