import {
  type Comparable,
  compileIRegexp,
  type FunctionArgument,
  type FunctionExpr,
  type JsonPathQuery,
  type LogicalExpr,
  type Segment,
  type Selector,
  type SingularQuery,
  type SliceSelector,
  selectorsOf,
} from "./jsonpath-ast";

// RFC 9535 JSONPath evaluated over jsonpath-rfc9535's syntax tree under a budget, whatever the
// payload: the package's own evaluator cannot be bounded (descendant segments multiply, filters
// nest, match()/search() run on backtracking RegExp). Here every node a selector looks at, every
// filter test and every character a pattern reads is counted, and match()/search() run on RE2.

/** The most nodes one query (or any node list inside it) may select. */
const JSONPATH_MAX_NODES = 10_000;
/**
 * The most work one query may do, in node visits (some 0.3 µs each): nodes looked at, filter
 * tests, and a pattern's steps × the characters it reads / 4.
 */
const JSONPATH_MAX_WORK = 1_000_000;

class JsonPathBudgetError extends Error {}

type Json = unknown;
const Nothing = Symbol("Nothing");
type Value = Json | typeof Nothing;
/** Work done so far: one per delivery, shared by the queries of a mapping. */
export type Budget = { work: number };

function spend(budget: Budget, units: number) {
  budget.work += units;
  if (budget.work > JSONPATH_MAX_WORK)
    throw new JsonPathBudgetError(
      `it needs more than ${JSONPATH_MAX_WORK.toLocaleString("en")} steps over this payload, its budget`,
    );
}

function capped(nodes: Json[]): Json[] {
  if (nodes.length > JSONPATH_MAX_NODES)
    throw new JsonPathBudgetError(
      `it selects more than ${JSONPATH_MAX_NODES.toLocaleString("en")} nodes in this payload, its limit`,
    );
  return nodes;
}

/**
 * The nodes `query` selects in `root`, in document order; throws JsonPathBudgetError once the
 * work (with what `budget` already holds) passes JSONPATH_MAX_WORK.
 */
export function queryBounded(root: Json, query: JsonPathQuery, budget: Budget = { work: 0 }) {
  return runQuery(budget, root, root, query.segments);
}

function runQuery(budget: Budget, root: Json, start: Json, segments: Segment[]): Json[] {
  let nodes: Json[] = [start];
  for (const segment of segments) {
    const next: Json[] = [];
    const selectors = selectorsOf(segment);
    const targets = segment.type === "DescendantSegment" ? descendants(budget, nodes) : nodes;
    for (const node of targets) for (const s of selectors) select(budget, root, node, s, next);
    nodes = capped(next);
  }
  return nodes;
}

/** Each node and everything under it, each node before its children, children in order. */
function descendants(budget: Budget, nodes: Json[]): Json[] {
  const out: Json[] = [];
  const stack = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop();
    spend(budget, 1);
    out.push(node);
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function childrenOf(v: Json): Json[] {
  if (Array.isArray(v)) return v;
  return isObject(v) ? Object.values(v) : [];
}

function select(budget: Budget, root: Json, node: Json, s: Selector, out: Json[]) {
  spend(budget, 1);
  switch (s.type) {
    case "NameSelector":
    case "MemberNameShorthand":
      if (isObject(node) && Object.hasOwn(node, s.value)) out.push(node[s.value]);
      return;
    case "IndexSelector":
      if (Array.isArray(node)) {
        const i = s.value < 0 ? node.length + s.value : s.value;
        if (i >= 0 && i < node.length) out.push(node[i]);
      }
      return;
    case "WildcardSelector":
      for (const child of childrenOf(node)) {
        spend(budget, 1);
        out.push(child);
      }
      return;
    case "SliceSelector":
      if (Array.isArray(node)) slice(budget, node, s, out);
      return;
    case "FilterSelector":
      for (const child of childrenOf(node)) {
        spend(budget, 1);
        if (test(budget, root, child, s.value)) out.push(child);
      }
      return;
  }
}

function slice(budget: Budget, array: Json[], s: SliceSelector, out: Json[]) {
  const step = s.step ?? 1;
  if (step === 0) return;
  const len = array.length;
  const norm = (i: number) => (i >= 0 ? i : len + i);
  const clamp = (i: number, lo: number, hi: number) => Math.min(Math.max(i, lo), hi);
  if (step > 0) {
    const lower = clamp(s.start === null ? 0 : norm(s.start), 0, len);
    const upper = clamp(s.end === null ? len : norm(s.end), 0, len);
    for (let i = lower; i < upper; i += step) {
      spend(budget, 1);
      out.push(array[i]);
    }
  } else {
    const upper = clamp(s.start === null ? len - 1 : norm(s.start), -1, len - 1);
    const lower = clamp(s.end === null ? -1 : norm(s.end), -1, len - 1);
    for (let i = upper; i > lower; i += step) {
      spend(budget, 1);
      out.push(array[i]);
    }
  }
}

function test(budget: Budget, root: Json, current: Json, e: LogicalExpr): boolean {
  spend(budget, 1);
  switch (e.type) {
    case "LogicalOrExpr":
      return test(budget, root, current, e.left) || test(budget, root, current, e.right);
    case "LogicalAndExpr":
      return test(budget, root, current, e.left) && test(budget, root, current, e.right);
    case "LogicalNotExpr":
      return !test(budget, root, current, e.expression);
    case "TestExpr": {
      const x = e.expression;
      if (x.type === "FilterQuery") return filterQuery(budget, root, current, x.value).length > 0;
      return call(budget, root, current, x) === true;
    }
    case "ComparisonExpr": {
      const left = comparable(budget, root, current, e.left);
      const right = comparable(budget, root, current, e.right);
      switch (e.op) {
        case "==":
          return equal(budget, left, right);
        case "!=":
          return !equal(budget, left, right);
        case "<":
          return less(left, right);
        case ">":
          return less(right, left);
        case "<=":
          return less(left, right) || equal(budget, left, right);
        case ">=":
          return less(right, left) || equal(budget, left, right);
      }
    }
  }
  return false;
}

function filterQuery(
  budget: Budget,
  root: Json,
  current: Json,
  q: { type: string; segments: Segment[] },
) {
  return runQuery(budget, root, q.type === "RelQuery" ? current : root, q.segments);
}

function comparable(budget: Budget, root: Json, current: Json, c: Comparable): Value {
  switch (c.type) {
    case "Literal":
      return c.value;
    case "FunctionExpr":
      return call(budget, root, current, c);
    default:
      return singular(budget, c.type === "RelSingularQuery" ? current : root, c);
  }
}

function singular(budget: Budget, start: Json, q: SingularQuery): Value {
  let node: Value = start;
  for (const { node: s } of q.segments) {
    const out: Json[] = [];
    spend(budget, 1);
    if (node !== Nothing) select(budget, start, node, s, out);
    node = out.length ? out[0] : Nothing;
  }
  return node;
}

function equal(budget: Budget, a: Value, b: Value): boolean {
  spend(budget, 1);
  if (a === Nothing || b === Nothing) return a === b;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => equal(budget, x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && equal(budget, a[k], b[k]));
  }
  return a === b;
}

function less(a: Value, b: Value): boolean {
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (typeof a === "string" && typeof b === "string") return a < b;
  return false;
}

// A function's result: a value, Nothing, or a boolean (match, search). Node lists are only ever
// arguments (a FilterQuery's), never a result.
function call(budget: Budget, root: Json, current: Json, f: FunctionExpr): Value {
  spend(budget, 1);
  const arg = (a: FunctionArgument | undefined): Value | Json[] => {
    if (!a) return Nothing;
    switch (a.type) {
      case "Literal":
        return a.value;
      case "FilterQuery":
        return filterQuery(budget, root, current, a.value);
      case "FunctionExpr":
        return call(budget, root, current, a);
      default:
        return test(budget, root, current, a);
    }
  };
  // A node list where a value is wanted: its one node, else Nothing.
  const value = (a: FunctionArgument | undefined): Value => {
    const v = arg(a);
    if (a?.type !== "FilterQuery" || !Array.isArray(v)) return v;
    return v.length === 1 ? v[0] : Nothing;
  };
  const [first, second] = f.arguments;
  switch (f.name) {
    case "length": {
      const v = value(first);
      if (typeof v === "string") return [...v].length;
      if (Array.isArray(v)) return v.length;
      return isObject(v) ? Object.keys(v).length : Nothing;
    }
    case "count": {
      const v = arg(first);
      return first?.type === "FilterQuery" && Array.isArray(v) ? v.length : Nothing;
    }
    case "value": {
      const v = arg(first);
      return first?.type === "FilterQuery" && Array.isArray(v) && v.length === 1 ? v[0] : Nothing;
    }
    case "match":
    case "search":
      return pattern(budget, f.name, value(first), value(second));
    default:
      return false;
  }
}

function pattern(budget: Budget, name: string, text: Value, source: Value): boolean {
  if (typeof text !== "string" || typeof source !== "string") return false;
  const re = compileIRegexp(source);
  if (typeof re === "string") return false;
  // RE2 steps each character through at most every instruction of the program: measured at up
  // to some 65 ns a step and character with captures, a quarter of a node visit's cost.
  spend(budget, Math.ceil(((text.length + 1) * re.programSize()) / 4));
  const m = re.matcher(text);
  return name === "match" ? m.matches() : m.find();
}
