import {
  compileIRegexp,
  type FunctionArgument,
  type JsonPathQuery,
  type LogicalExpr,
  type Segment,
  selectorsOf,
} from "./jsonpath-ast";

// What a stored JSONPath may be, read from its syntax tree when it is saved: the shapes whose
// cost multiplies with the payload are refused, so the delivery-time budget (lib/util/jsonpath.ts)
// is met by any sensible expression. Each `..` multiplies the work by the payload's size, and
// so does each filter inside a filter; a pattern taken from the payload could be anything.

/** Descendant segments (`..`) allowed in one expression, filters included. */
const JSONPATH_MAX_DESCENDANTS = 1;

/** Why the expression is refused, or undefined. */
export function jsonPathRuleProblem(query: JsonPathQuery): string | undefined {
  const found: Found = { descendants: 0 };
  walkSegments(query.segments, 0, found);
  if (found.problem) return found.problem;
  if (found.descendants > JSONPATH_MAX_DESCENDANTS)
    return `it has ${found.descendants} descendant segments (..); at most ${JSONPATH_MAX_DESCENDANTS}, since each multiplies the work by the payload's size`;
  return undefined;
}

type Found = { descendants: number; problem?: string };

function walkSegments(segments: Segment[], filters: number, found: Found) {
  for (const segment of segments) {
    if (segment.type === "DescendantSegment") found.descendants++;
    for (const s of selectorsOf(segment)) {
      if (s.type !== "FilterSelector") continue;
      if (filters > 0) {
        found.problem ??=
          "it has a filter inside a filter, whose work multiplies with the payload's size";
        return;
      }
      walkLogical(s.value, filters + 1, found);
    }
  }
}

function walkLogical(e: LogicalExpr, filters: number, found: Found) {
  switch (e.type) {
    case "LogicalOrExpr":
    case "LogicalAndExpr":
      walkLogical(e.left, filters, found);
      walkLogical(e.right, filters, found);
      return;
    case "LogicalNotExpr":
      walkLogical(e.expression, filters, found);
      return;
    case "TestExpr":
      walkArgument(e.expression, filters, found);
      return;
    case "ComparisonExpr":
      walkArgument(e.left, filters, found);
      walkArgument(e.right, filters, found);
      return;
  }
}

function walkArgument(
  a: FunctionArgument | { type: "RelSingularQuery" | "AbsSingularQuery" },
  filters: number,
  found: Found,
) {
  switch (a.type) {
    case "FilterQuery":
      walkSegments(a.value.segments, filters, found);
      return;
    case "FunctionExpr": {
      if (a.name === "match" || a.name === "search") {
        const pattern = a.arguments[1];
        if (pattern?.type !== "Literal" || typeof pattern.value !== "string") {
          found.problem ??= `${a.name}() takes its pattern as a string literal here, never from the payload`;
          return;
        }
        const re = compileIRegexp(pattern.value);
        if (typeof re === "string") found.problem ??= `${a.name}(): ${re}`;
      }
      for (const arg of a.arguments) walkArgument(arg, filters, found);
      return;
    }
    case "Literal":
    case "RelSingularQuery":
    case "AbsSingularQuery":
      return;
    default:
      walkLogical(a, filters, found);
  }
}
