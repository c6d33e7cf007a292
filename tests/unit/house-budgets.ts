/**
 * The house's budgets, held by house.test.ts. Each only ever falls: a change that saves lowers
 * it here in the same commit (the test says to), a change that would spend more fails.
 */

/** Lines at which a function needs a named reason: its whole span, nested functions in. */
export const MAX_FUNCTION_LINES = 80;

/** The functions of MAX_FUNCTION_LINES or more, as "file name", each with why it stays long. */
export const LONG_FUNCTIONS: Record<string, string> = {};

/** Casts (`x as T`, `<T>x`; not `as const`) per folder of lib/ and app/: under 100 in all. */
export const CAST_BUDGET: Record<string, number> = {
  app: 2,
  "lib/api": 6,
  "lib/auth": 1,
  "lib/crew": 3,
  "lib/engine": 4,
  "lib/runs": 3,
  "lib/tools": 3,
  "lib/tracker": 2,
  "lib/util": 1,
};

/**
 * The most file pairs sharing a run of six lines (scripts/house/duplicates.ts) per folder; "."
 * is app/, components/, lib/ and scripts/ together.
 */
export const DUPLICATE_CEILING: Record<string, number> = {
  components: 18,
  // 90 → 94 when the admin and experiments endpoints split under 300 lines: two more files whose
  // declarations are shaped alike (file pairs, not new repeats of logic).
  lib: 78,
  ".": 108,
};
