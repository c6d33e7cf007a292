/**
 * Node flags for the processes the tests start. A test's server lives seconds, so V8 compiles
 * PGlite's WebAssembly with its baseline compiler only, and JavaScript with no more than its
 * mid-tier one (Maglev): the optimizing tiers' background compiles cost a short-lived process
 * more CPU than they ever save it (bench/pglite-open.mjs; `--no-opt` took a server's start from
 * 2.8 to 2.5 CPU-s, with the same CPU for its requests after). The product keeps V8's defaults:
 * a server that stays up earns the optimized code back.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only", "--no-opt"];
