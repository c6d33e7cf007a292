import { RE2JS } from "re2js";

// CEL's `matches` is RE2's partial match: run on re2js, in time linear in the text (a program
// step per character and live thread), never on the backtracking RegExp cel-js would use.

/** The name `text.matches(pattern)` is evaluated under (lib/util/cel.ts registers it). */
export const MATCHES = "matches_re2";

// Compiled patterns, kept for the next item of a macro or the next delivery.
const compiled = new Map<string, RE2JS>();

/** `pattern` compiled, or an Error saying why it is not an RE2 pattern. */
function compileRe2(pattern: string): RE2JS | Error {
  const known = compiled.get(pattern);
  if (known) return known;
  try {
    const re = RE2JS.compile(pattern);
    if (compiled.size >= 100) compiled.clear();
    compiled.set(pattern, re);
    return re;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return new Error(`matches: ${JSON.stringify(pattern)} is not an RE2 pattern: ${why}`);
  }
}

export function matchesRe2(text: string, pattern: string): boolean {
  const re = compileRe2(pattern);
  if (re instanceof Error) throw re;
  return re.matcher(text).find();
}

// re2js compiles a step in up to 3 µs (repeats expand: `a{1000}` is 1,000 steps), and runs each
// character through each live step, copying captures, in up to a quarter of a microsecond, with
// a floor of some 2 µs a character for the smallest hostile programs. In cel-cost.ts's units
// (about 0.1 µs each):
const COMPILE_PER_STEP = 30;
const MATCH_PER_CHARACTER = 20;
// RE2 refuses a repetition count (or nested counts multiplied) over 1,000.
const MAX_REPEAT = 1000;

/** The most steps `pattern` compiles to, read without compiling it: at most 4 a character. */
function stepsBound(length: number, repeats: number): number {
  return (4 * length + 4) * Math.min(MAX_REPEAT, repeats);
}

/** Every repetition count in `pattern` multiplied, as if each nested all the others. */
function repeatsIn(pattern: string): number {
  let product = 1;
  for (const m of pattern.matchAll(/\{(\d+)(?:(,)(\d*))?\}/g)) {
    const [, low = "0", comma, high] = m;
    const n = !comma ? Number(low) : high ? Number(high) : Number(low) + 1;
    product = Math.min(MAX_REPEAT, product * Math.max(1, n));
  }
  return product;
}

/**
 * The most matching `text` characters against `pattern` costs, compiling included: a literal
 * pattern is compiled here, once the bound of its compiling fits the limit, to read its size;
 * one computed during the evaluation (`pattern` its longest length) is taken to be all repeats.
 */
export function matchCost(text: number, pattern: string | number, limit: number): number {
  const literal = typeof pattern === "string";
  const bound = literal
    ? stepsBound(pattern.length, repeatsIn(pattern))
    : stepsBound(pattern, MAX_REPEAT);
  const compile = COMPILE_PER_STEP * bound;
  let steps = bound;
  if (literal && compile <= limit) {
    const re = compileRe2(pattern);
    if (!(re instanceof Error)) steps = re.programSize();
  }
  return compile + (text + 1) * (MATCH_PER_CHARACTER + steps);
}
