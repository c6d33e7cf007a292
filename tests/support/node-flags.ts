/**
 * Node flags for the processes the tests start. A test's server lives seconds, so V8 compiles
 * PGlite's WebAssembly with its baseline compiler only: the optimizing tier's background compiles
 * cost a short-lived process more CPU than they ever save it (bench/pglite-open.mjs). The
 * product keeps V8's default: a server that stays up earns the optimized code back.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only"];
