import { CEL_COST_LIMIT, CEL_COST_WHY, Cel, costText } from "@/lib/util/cel";

// The CEL a flow declaration holds, checked when the flow loads as CrewAI checks it
// (crewai/flow/expressions.py): a full expression where one is expected (`expr`, `each.in`,
// a step's `if`), and every `${...}` inside the strings of a template (`inputs`, `with`,
// an agent's `input`). Each must parse and read flow data only through the allowed roots.

/** CEL as flows evaluate it: any root parses (celProblem checks them), each evaluation costed. */
export const flowCel = new Cel({ anyVariable: true });

/** The text and `${...}` expressions of a template string, in order. */
export type Segment = string | { cel: string };

/** Splits `value` at its `${...}`: a `}` inside a string literal or a nested map does not end one. */
export function templateSegments(value: string): Segment[] {
  const out: Segment[] = [];
  let index = 0;
  for (let start = value.indexOf("${"); start !== -1; start = value.indexOf("${", index)) {
    if (start > index) out.push(value.slice(index, start));
    const end = closingBrace(value, start + 2);
    const cel = value.slice(start + 2, end).trim();
    if (!cel) throw new Error(`empty CEL expression in ${JSON.stringify(value)}`);
    out.push({ cel });
    index = end + 1;
  }
  if (index < value.length || out.length === 0) out.push(value.slice(index));
  return out;
}

function closingBrace(value: string, from: number): number {
  let depth = 1;
  for (let i = from; i < value.length; i++) {
    const c = value[i];
    if (c === '"' || c === "'") {
      // Skip the string literal, escapes included.
      for (i++; i < value.length && value[i] !== c; i++) if (value[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  throw new Error(`unterminated \${...} expression in ${JSON.stringify(value)}`);
}

type Node = { op: string; args: unknown };
const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && "op" in v && "args" in v;
// Macros that bind a variable of their own: `rows.map(r, r.size())` reads `rows`, not `r`.
const BINDING_MACROS = new Set(["all", "exists", "exists_one", "filter", "map"]);

/** The identifiers an expression reads data through, its macros' own variables left out. */
function celRoots(expression: string): Set<string> {
  const roots = new Set<string>();
  const walk = (value: unknown, locals: ReadonlySet<string>): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v, locals);
      return;
    }
    if (!isNode(value)) return;
    if (value.op === "id") {
      if (typeof value.args === "string" && !locals.has(value.args)) roots.add(value.args);
      return;
    }
    if (value.op === "rcall" && Array.isArray(value.args)) {
      const [name, receiver, params]: unknown[] = value.args;
      walk(receiver, locals);
      const [first, ...rest]: unknown[] = Array.isArray(params) ? params : [];
      if (BINDING_MACROS.has(String(name)) && isNode(first) && first.op === "id") {
        walk(rest, new Set([...locals, String(first.args)]));
      } else walk(params, locals);
      return;
    }
    walk(value.args, locals);
  };
  walk(flowCel.parse(expression), new Set());
  return roots;
}

/** Told of an expression that loads but that every run would refuse for its cost. */
export type CostWarn = (source: string, message: string) => void;

/**
 * Why `expression` is not one CrewAI would load at `source`, or undefined. `whole`: a full
 * expression, which may still be written wrapped in `${...}`. One that parses but is past the
 * CEL cost limit whatever the data still loads (CrewAI would run it): `warn` is told, and the
 * step fails when it runs.
 */
export function celProblem(
  expression: string,
  allowed: readonly string[],
  source: string,
  warn?: CostWarn,
): string | undefined {
  let cel = expression.trim();
  if (cel.startsWith("${") && cel.endsWith("}")) cel = cel.slice(2, -1).trim();
  if (!cel)
    return `empty CEL expression at ${source}. Provide a CEL expression such as state.topic or outputs.step_name.`;
  let roots: Set<string>;
  try {
    roots = celRoots(cel);
  } catch (err) {
    const detail = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return `invalid CEL expression at ${source}: ${JSON.stringify(cel)}. Check the CEL syntax. Parser details: ${detail}`;
  }
  const unknown = [...roots].filter((r) => !allowed.includes(r)).sort();
  if (!unknown.length) {
    const least = warn ? flowCel.leastCost(cel) : 0;
    if (warn && least > CEL_COST_LIMIT)
      warn(
        source,
        `CEL expression would exceed the cost limit of ${costText(CEL_COST_LIMIT)} on every run: even over empty data it could cost ${costText(least)}, so this step will fail when it runs. ${CEL_COST_WHY}.`,
      );
    return undefined;
  }
  return `unknown CEL root at ${source}: ${unknown.map((r) => `'${r}'`).join(", ")}; allowed roots: ${[...allowed].sort().join(", ")}. Reference flow data through one of those roots, for example state.field or outputs.step_name.`;
}

/** The first problem with the `${...}` expressions anywhere inside `value` (a template). */
export function templateProblem(
  value: unknown,
  allowed: readonly string[],
  source: string,
  warn?: CostWarn,
): string | undefined {
  if (typeof value === "string") {
    let segments: Segment[];
    try {
      segments = templateSegments(value);
    } catch (err) {
      return `${err instanceof Error ? err.message : String(err)} at ${source}`;
    }
    const expressions = segments.filter((s): s is { cel: string } => typeof s !== "string");
    for (const [i, s] of expressions.entries()) {
      const where = expressions.length === 1 ? source : `${source} (expression ${i + 1})`;
      const problem = celProblem(s.cel, allowed, where, warn);
      if (problem) return problem;
    }
    return undefined;
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [`[${i}]`, v])
    : typeof value === "object" && value !== null
      ? Object.entries(value).map(([k, v]) => [`.${k}`, v])
      : [];
  for (const [at, v] of entries) {
    const problem = templateProblem(v, allowed, `${source}${at}`, warn);
    if (problem) return problem;
  }
  return undefined;
}
