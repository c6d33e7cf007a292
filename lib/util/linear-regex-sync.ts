import { RE2JS } from "re2js";
import { unsupported } from "./linear-regex";

// Patterns checked inside a synchronous caller (Ajv's `pattern` and `patternProperties`) run on
// RE2JS in-process: it never backtracks, so `^([a-zA-Z0-9]+\s?)*$` costs time linear in the value.
// Linear is not free, so each compiled pattern and each text it reads has a budget. The patterns
// are an operator's (a crew file, an MCP server); the texts a caller's.

/** The longest pattern compiled, in characters (as for the regex scorer). */
const PATTERN_MAX_LENGTH = 1000;
/** The largest compiled pattern, in RE2 steps (instructions). */
const PATTERN_MAX_STEPS = 2000;
/** The longest text one pattern reads, in characters. */
const PATTERN_TEXT_MAX_LENGTH = 100_000;

const FLAG_BITS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0, // RE2 always reads code points
};

/**
 * The most characters the patterns of one check may read together: one value may be read by
 * many patterns (an array's items, allOf), and RE2JS costs up to about 1 µs a character.
 */
const PATTERN_CHECK_MAX_CHARS = 500_000;
let left = Number.POSITIVE_INFINITY;

/** A text longer than a pattern reads, or a check past its budget: it fails, saying so. */
export class PatternBudgetError extends Error {}

/** Runs `check` (synchronous) with the patterns it runs sharing one budget of characters. */
export function withinPatternBudget<T>(check: () => T): T {
  const outer = left;
  left = PATTERN_CHECK_MAX_CHARS;
  try {
    return check();
  } finally {
    left = outer;
  }
}

function spend(chars: number) {
  if (chars > PATTERN_TEXT_MAX_LENGTH)
    throw new PatternBudgetError(
      `a value of ${chars.toLocaleString("en")} characters is longer than the ${PATTERN_TEXT_MAX_LENGTH.toLocaleString("en")} a pattern checks`,
    );
  left -= chars;
  if (left < 0)
    throw new PatternBudgetError(
      `the patterns would read more than ${PATTERN_CHECK_MAX_CHARS.toLocaleString("en")} characters of this value`,
    );
}

export type LinearPattern = { test: (text: string) => boolean };

/** The pattern compiled for RE2, or why it cannot be ("uses a lookahead (?=…), which …"). */
export function compileLinear(
  pattern: string,
  flags = "",
): { ok: true; pattern: LinearPattern } | { ok: false; reason: string } {
  if (pattern.length > PATTERN_MAX_LENGTH)
    return { ok: false, reason: `is ${pattern.length} characters; at most ${PATTERN_MAX_LENGTH}` };
  let bits = 0;
  for (const f of flags) {
    const bit = FLAG_BITS[f];
    if (bit === undefined || !Object.hasOwn(FLAG_BITS, f))
      return { ok: false, reason: `has flag '${f}', which is not supported` };
    bits |= bit;
  }
  const why = unsupported(pattern);
  if (why) return { ok: false, reason: why };
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      reason: `is not a pattern RE2 reads: ${message.replace(/^error parsing regexp: /, "")}`,
    };
  }
  const steps = re.programSize();
  if (steps > PATTERN_MAX_STEPS)
    return {
      ok: false,
      reason: `compiles to ${steps} steps; at most ${PATTERN_MAX_STEPS} (repeat less)`,
    };
  return {
    ok: true,
    pattern: {
      test(text: string) {
        spend(text.length);
        return re.test(text);
      },
    },
  };
}
