import path from "node:path";

/**
 * Node flags for the processes the tests start. A test's server lives seconds, so V8 compiles
 * PGlite's WebAssembly with its baseline compiler only, and JavaScript with no more than its
 * mid-tier one (Maglev): the optimizing tiers' background compiles cost a short-lived process
 * more CPU than they ever save it (bench/pglite-open.mjs; `--no-opt` took a server's start from
 * 2.8 to 2.5 CPU-s, with the same CPU for its requests after). The product keeps V8's defaults:
 * a server that stays up earns the optimized code back.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only", "--no-opt"];

/**
 * TEST_NODE_FLAGS for a `next start` the tests start, with a code cache of the CommonJS it loads
 * kept beside the build (tests/support/compile-cache.cjs): each suite starts dozens of servers
 * from one build, and each compiled the same Next.js runtime and route chunks again.
 */
export const TEST_SERVER_FLAGS = [
  ...TEST_NODE_FLAGS,
  "--require",
  path.join(import.meta.dirname, "compile-cache.cjs"),
];
