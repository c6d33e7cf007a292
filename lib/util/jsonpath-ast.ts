import type { JsonPathQuery } from "jsonpath-rfc9535/parser";
import { RE2JS } from "re2js";

// The parts of jsonpath-rfc9535's syntax tree the bounded evaluator and the save-time rules read,
// named from the one type the package exports, and RFC 9485 I-Regexp patterns compiled on RE2.

export type { JsonPathQuery };
export type Segment = JsonPathQuery["segments"][number];
type BracketedSelection = Extract<Segment["node"], { type: "BracketedSelection" }>;
/** A selector, in brackets or alone (`.name`, `.*`). */
export type Selector =
  | BracketedSelection["selectors"][number]
  | Exclude<Segment["node"], BracketedSelection>;
type FilterSelector = Extract<Selector, { type: "FilterSelector" }>;
export type SliceSelector = Extract<Selector, { type: "SliceSelector" }>;
export type LogicalExpr = FilterSelector["value"];
type TestExpr = Extract<LogicalExpr, { type: "TestExpr" }>;
export type FunctionExpr = Extract<TestExpr["expression"], { type: "FunctionExpr" }>;
export type FunctionArgument = FunctionExpr["arguments"][number];
type ComparisonExpr = Extract<LogicalExpr, { type: "ComparisonExpr" }>;
export type Comparable = ComparisonExpr["left"];
export type SingularQuery = Extract<Comparable, { segments: unknown }>;

/** The selectors one segment applies, a bracketed list or one alone. */
export function selectorsOf(segment: { node: Segment["node"] }): Selector[] {
  return segment.node.type === "BracketedSelection" ? segment.node.selectors : [segment.node];
}

/** The largest compiled pattern match()/search() may use, in RE2 program steps. */
const PATTERN_MAX_STEPS = 500;

// Compiled patterns (or why not), kept across deliveries; bounded.
const compiled = new Map<string, RE2JS | string>();

/**
 * An I-Regexp pattern on RE2 (linear time in the text): its `.` excludes \r as well as \n, as
 * RFC 9485 says. A string saying why not when RE2 cannot read it or it is too large.
 */
export function compileIRegexp(pattern: string): RE2JS | string {
  const known = compiled.get(pattern);
  if (known !== undefined) return known;
  let result: RE2JS | string;
  try {
    const re = RE2JS.compile(translateDots(pattern));
    result =
      re.programSize() > PATTERN_MAX_STEPS
        ? `the pattern compiles to ${re.programSize()} steps; at most ${PATTERN_MAX_STEPS}`
        : re;
  } catch (err) {
    result = `RE2 cannot read the pattern: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (compiled.size >= 200) compiled.clear();
  compiled.set(pattern, result);
  return result;
}

function translateDots(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      out += c + (pattern[i + 1] ?? "");
      i++;
    } else if (inClass) {
      inClass = c !== "]";
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else out += c === "." ? "[^\\n\\r]" : c;
  }
  return out;
}
