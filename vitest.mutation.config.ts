import path from "node:path";
import { defineConfig } from "vitest/config";

// The unit project alone, for mutation testing (stryker.config.mjs): the http and chaos projects
// start servers and processes, which a run per mutant cannot afford.
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
