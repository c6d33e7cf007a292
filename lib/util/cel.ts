import { type ASTNode, Environment } from "@marcbachmann/cel-js";
import { CEL_COST_LIMIT, estimateCost } from "./cel-cost";
import { MATCHES, matchesRe2 } from "./cel-re2";
import { type Shape, SMALLEST, shapeOf } from "./cel-shape";

// The only door to CEL (tests/unit/cel-cost.test.ts checks no other module imports cel-js):
// triggers' mappings and concurrency keys, flows' expressions and templates. cel-js bounds the
// text it parses but not the work it does, and nested macros over a list multiply (a 220-character
// expression ran 5 s, with no input). So every evaluation is costed first (cel-cost.ts) against
// the shapes of its actual inputs and refused, before it runs, when it could cost more than its
// budget. And `matches` runs on re2js, a linear-time engine (cel-re2.ts).

export { CEL_COST_LIMIT } from "./cel-cost";

/**
 * cel-js's parse-time limits: the spec's for literals and arguments; nodes and nesting low enough
 * that cel-js's recursive evaluator (and the estimate's walk) stays far from the stack's end.
 */
const CEL_LIMITS = Object.freeze({
  maxAstNodes: 2000,
  maxDepth: 32,
  maxListElements: 1000,
  maxMapEntries: 1000,
  maxCallArguments: 32,
});

export class CelCostError extends Error {}

/** A cost as a sentence shows it. */
export const costText = (n: number) =>
  Number.isFinite(n) ? Math.ceil(n).toLocaleString("en-US") : "an unbounded amount";
export const CEL_COST_WHY =
  "Each map, filter, all or exists runs its body once per item, so nested ones multiply";

/** What a run of evaluations may still spend: one delivery's mapping shares one. */
export class CelBudget {
  #left: number;
  constructor(readonly limit = CEL_COST_LIMIT) {
    this.#left = limit;
  }

  /** Takes `cost` from what is left, or throws CelCostError when it does not fit. */
  spend(cost: number): void {
    if (cost <= this.#left) {
      this.#left -= cost;
      return;
    }
    const left =
      this.#left < this.limit ? `, and ${costText(this.#left)} was left after the ones before` : "";
    throw new CelCostError(
      `CEL expression exceeded its cost limit of ${costText(this.limit)}: over this data it could cost up to ${costText(cost)}${left}. ${CEL_COST_WHY}.`,
    );
  }
}

export type CelOptions = {
  /** The variables an expression may read, with their CEL types. */
  variables?: Readonly<Record<string, string>>;
  /** Any other name is a variable of type dyn (its roots are checked elsewhere). */
  anyVariable?: boolean;
  /** Whether a list or map literal must hold one type (CEL's default). */
  homogeneousLiterals?: boolean;
};

export class Cel {
  readonly #env: Environment;

  constructor(options: CelOptions = {}) {
    this.#env = new Environment({
      unlistedVariablesAreDyn: options.anyVariable ?? false,
      homogeneousAggregateLiterals: options.homogeneousLiterals ?? true,
      limits: CEL_LIMITS,
    }).registerFunction(`string.${MATCHES}(string): bool`, matchesRe2);
    for (const [name, type] of Object.entries(options.variables ?? {}))
      this.#env.registerVariable(name, type);
  }

  /** The parse tree of `source`; throws cel-js's ParseError. */
  parse(source: string): ASTNode {
    return this.#env.parse(source).ast;
  }

  /** Why `source` does not parse or type-check, or undefined. */
  problem(source: string): unknown {
    const { valid, error } = this.#env.check(source);
    return valid ? undefined : (error ?? new Error("not a CEL expression"));
  }

  /**
   * The estimate over the smallest inputs. Estimates only grow with their inputs, so past the
   * limit here, every evaluation is refused: the save-time check.
   */
  leastCost(source: string): number {
    return estimateCost(this.parse(source), () => SMALLEST);
  }

  /** The most evaluating `source` over `context` could cost. */
  cost(source: string, context: Record<string, unknown>): number {
    return this.#costOf(this.#env.parse(source).ast, context);
  }

  /** Evaluates `source` over `context` (values as lib/util/cel-values.ts makes them). */
  evaluate(source: string, context: Record<string, unknown>, budget = new CelBudget()): unknown {
    const parsed = this.#env.parse(source);
    budget.spend(this.#costOf(parsed.ast, context));
    const run = hasMatches(parsed.ast) ? this.#env.parse(withRe2(source, parsed.ast)) : parsed;
    return run(context);
  }

  /** The names of the functions and macros an expression may call. */
  functionNames(): Set<string> {
    return new Set(this.#env.getDefinitions().functions.map((f) => f.name));
  }

  #costOf(ast: ASTNode, context: Record<string, unknown>): number {
    const shapes = new Map<string, Shape>();
    return estimateCost(ast, (name) => {
      let shape = shapes.get(name);
      if (!shape) {
        shape = Object.hasOwn(context, name) ? shapeOf(context[name]) : SMALLEST;
        shapes.set(name, shape);
      }
      return shape;
    });
  }
}

/** Each `text.matches(pattern)` in the tree, written between the receiver and the pattern. */
function matchesCalls(node: unknown, out: ASTNode[] = []): ASTNode[] {
  if (Array.isArray(node)) for (const n of node) matchesCalls(n, out);
  else if (isNode(node)) {
    if (node.op === "rcall" && node.args[0] === "matches" && node.args[2].length === 1)
      out.push(node);
    matchesCalls(node.args, out);
  }
  return out;
}

const isNode = (v: unknown): v is ASTNode =>
  typeof v === "object" && v !== null && "op" in v && "args" in v && "start" in v;
const hasMatches = (ast: ASTNode) => matchesCalls(ast).length > 0;

// `x.matches(p)` → `x.matches_re2(p)`: the text from the receiver's end to the pattern's start
// holds only the dot, the name and the parenthesis (and spaces, and a receiver's closing parens).
const CALL = /^([\s)]*\.\s*)matches(\s*\(\s*)$/;

function withRe2(source: string, ast: ASTNode): string {
  let out = source;
  // From the last to the first, so that each cut is where the parser saw it.
  const calls = matchesCalls(ast).flatMap((n) => (n.op === "rcall" ? [n.args] : []));
  calls.sort((a, b) => b[1].end - a[1].end);
  for (const [, receiver, [pattern]] of calls) {
    const between = pattern ? source.slice(receiver.end, pattern.start) : "";
    const call = CALL.exec(between);
    if (!pattern || !call)
      throw new Error("matches takes one pattern, written text.matches(pattern)");
    out = `${out.slice(0, receiver.end)}${call[1]}${MATCHES}${call[2]}${out.slice(pattern.start)}`;
  }
  return out;
}
