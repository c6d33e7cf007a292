import { MATCHES, matchCost } from "./cel-re2";
import {
  BYTES,
  LIST,
  MAP,
  merge,
  OTHER,
  SCALAR,
  type Shape,
  SMALLEST,
  STRING,
  text,
} from "./cel-shape";

// What each CEL function costs in cel-cost.ts's units, and the constants both files price with.

/** A node's cost and the shape of its value; a string literal's text, for `matches`. */
export type Cost = { cost: number; shape: Shape; literal?: string };

/** What one evaluation, or a run of them sharing a CelBudget (cel.ts), may cost. */
export const CEL_COST_LIMIT = 1_000_000;

export const CHAR = 0.1;
const SEARCH = 0.3;
// Calendar fields in a named time zone go through Intl, about half a millisecond a call.
const TIME_ZONE = 10_000;
export const MACROS = new Set(["all", "exists", "exists_one", "filter", "map"]);
// Conversions and tests that read their arguments once and give one small value.
const SMALL = new Set([
  ...["int", "uint", "double", "bool", "timestamp", "duration", "type", "has", "at"],
  ...["hasValue", "none"],
]);

/**
 * What a function does beyond evaluating its arguments, and the shape of what it gives. `all`
 * holds the receiver first, when there is one. Every function cel-js registers is named here
 * (tests/unit/cel-cost.test.ts checks it).
 */
export function functionCost(name: string, all: readonly Cost[]): Priced {
  return textFunctionCost(name, all) ?? valueFunctionCost(name, all);
}

type Priced = { work: number; shape: Shape };

/** The functions on text: what they read, and the text they give. Undefined for the others. */
function textFunctionCost(name: string, all: readonly Cost[]): Priced | undefined {
  const [a, b] = all.map((c) => c.shape);
  const len = a?.len ?? 0;
  const chars = (n: number) => ({ work: CHAR * n, shape: text(n) });
  switch (name) {
    case "startsWith":
    case "endsWith":
      // Reads as much of the text as the prefix (or suffix) is long.
      return { work: CHAR * Math.min(len, b?.len ?? 0), shape: SCALAR };
    case "size":
      return { work: CHAR * len, shape: SCALAR };
    case "contains":
    case "indexOf":
    case "lastIndexOf":
      // V8's search reads a character in up to 30 ns when the text repeats the pattern's start.
      return { work: SEARCH * (len + (b?.len ?? 0)), shape: SCALAR };
    case "lowerAscii":
    case "upperAscii":
    case "trim":
    case "substring":
      return chars(len);
    case "string":
      // A number or a timestamp is written in a few dozen characters.
      return chars(Math.max(len, 40));
    case "bytes":
      return { work: 3 * CHAR * len, shape: text(3 * len, BYTES) };
    case "hex":
      return { work: 2 * CHAR * len, shape: text(2 * len) };
    case "base64":
      return chars(Math.ceil((4 * len) / 3) + 4);
    case "matches":
    case MATCHES:
      // A linear-time match (re2js): each character steps through the compiled pattern.
      return {
        work: matchCost(len, all[1]?.literal ?? b?.len ?? 0, CEL_COST_LIMIT),
        shape: SCALAR,
      };
    default:
      return undefined;
  }
}

/** Lists, JSON, optional values, calendar fields and conversions. */
function valueFunctionCost(name: string, all: readonly Cost[]): Priced {
  const [a, b] = all.map((c) => c.shape);
  const len = a?.len ?? 0;
  switch (name) {
    case "split":
      return {
        work: (1 + CHAR) * len,
        shape: {
          kinds: LIST,
          len: len + 1,
          nodes: len + 2,
          chars: len,
          keyLen: 0,
          items: text(len),
        },
      };
    case "join": {
      const out = (a?.chars ?? 0) + len * (b?.len ?? 0);
      return { work: len + CHAR * out, shape: text(out) };
    }
    case "json":
      // Parsed JSON holds at most as many values and characters as its text.
      return {
        work: len,
        shape: { kinds: STRING | LIST | MAP | OTHER, len, nodes: len, chars: len, keyLen: len },
      };
    case "dyn":
    case "value":
    case "of":
    case "or":
    case "orValue":
      return { work: 0, shape: all.reduce((s, c) => merge(s, c.shape), SMALLEST) };
    case "getDate":
    case "getDayOfMonth":
    case "getDayOfWeek":
    case "getDayOfYear":
    case "getFullYear":
    case "getHours":
    case "getMilliseconds":
    case "getMinutes":
    case "getMonth":
    case "getSeconds":
      return { work: all.length > 1 ? TIME_ZONE : 0, shape: SCALAR };
    default:
      if (SMALL.has(name))
        return { work: all.reduce((n, c) => n + CHAR * c.shape.len, 0), shape: SCALAR };
      // No such function (KNOWN_FUNCTIONS names every one cel-js has): the type check that
      // comes before evaluating refuses it, with cel-js's own message.
      return { work: 0, shape: SCALAR };
  }
}

/** Every function name the estimate knows, macros included. */
export const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set([
  ...MACROS,
  ...SMALL,
  "bind",
  ...["size", "startsWith", "endsWith", "contains", "indexOf", "lastIndexOf"],
  ...["lowerAscii", "upperAscii", "trim", "substring", "string", "bytes", "hex", "base64"],
  ...["matches", MATCHES, "split", "join", "json", "dyn", "value", "of", "or", "orValue"],
  ...["getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getHours"],
  ...["getMilliseconds", "getMinutes", "getMonth", "getSeconds"],
]);
