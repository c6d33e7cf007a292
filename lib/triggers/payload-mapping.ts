import parseJsonPath from "jsonpath-rfc9535/parser";
import { z } from "zod";
import { errorField, errorMessage, type FieldError } from "@/lib/errors";
import { CEL_COST_LIMIT, CEL_COST_WHY, Cel, CelBudget, costText } from "@/lib/util/cel";
import { fromCel, toCel } from "@/lib/util/cel-values";
import { type Budget as JsonPathBudget, queryBounded } from "@/lib/util/jsonpath";
import { jsonPathRuleProblem } from "@/lib/util/jsonpath-rules";

// How a trigger turns the JSON someone else sent into a crew's inputs: one expression per input.
// An expression starting with `$` is a JSONPath (RFC 9535) over the payload; anything else is CEL
// with `payload` and `headers` (lower-cased names) to read. Neither library evaluates with eval or
// new Function, which the server's CSP forbids.

/** Input name → expression. */
export type Mapping = Record<string, string>;

const MAX_ENTRIES = 50;
const MAX_EXPRESSION = 500;

const InputName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    "An input name starts with a letter or _ and holds only letters, digits and _.",
  )
  // Allowed by the pattern, but as a key it would reach the inputs object's prototype.
  .refine((name) => name !== "__proto__", "__proto__ cannot name an input.");

// The limit holds for the text as stored, before trimming.
const Expression = z
  .string()
  .max(MAX_EXPRESSION, `An expression is at most ${MAX_EXPRESSION} characters.`)
  .trim()
  .min(1, "The expression is empty.");

// One environment for every trigger: only `payload` and `headers` exist, so a misspelt variable
// fails the check when the mapping is saved rather than on the first delivery. A mapping's
// expressions (and, apart, its concurrency key) share one cost budget per delivery.
const cel = new Cel({
  variables: { payload: "dyn", headers: "map<string, string>" },
  homogeneousLiterals: false,
});

/** The mapping as a body field: its issues are checkMapping's, under the mapping's own key. */
export const MappingSchema = z.record(z.string(), z.string()).superRefine((mapping, ctx) => {
  for (const { name, message } of mappingProblems(mapping))
    ctx.addIssue({ code: "custom", message, path: name === null ? [] : [name] });
});

/** Checks every expression parses; returns one message per bad one, keyed by input name ("mapping.<name>"). */
export function checkMapping(mapping: Mapping): FieldError[] {
  return mappingProblems(mapping).map(asFieldError);
}

type Problem = { name: string | null; message: string };

function asFieldError({ name, message }: Problem): FieldError {
  return { path: name === null ? "mapping" : `mapping.${name}`, message };
}

/** What is wrong with the mapping: name null for the whole of it, else the input at fault. */
function mappingProblems(mapping: Mapping): Problem[] {
  const entries = Object.entries(mapping);
  if (entries.length > MAX_ENTRIES)
    return [
      {
        name: null,
        message: `A mapping has at most ${MAX_ENTRIES} inputs; this one has ${entries.length}.`,
      },
    ];
  // What each CEL expression costs at the least, whatever the payload: they share one budget,
  // so the input that takes the sum past it is named.
  let least = 0;
  return entries.flatMap(([name, expression]) => {
    const checked = problemOf(name, expression);
    if (typeof checked === "string") return [{ name, message: checked }];
    const before = least;
    least += checked.leastCost;
    if (least <= CEL_COST_LIMIT || before > CEL_COST_LIMIT) return [];
    return [{ name, message: overBudget(least, before > 0) }];
  });
}

function overBudget(least: number, shared: boolean): string {
  const what = shared ? "With the expressions before it, this one" : "This expression";
  return `${what} would exceed the CEL cost limit of ${costText(CEL_COST_LIMIT)} on every delivery: even over an empty payload it could cost ${costText(least)}. ${CEL_COST_WHY}.`;
}

/**
 * Evaluates each expression against the payload. A singular JSONPath gives the value it selects,
 * or leaves the input out when it selects nothing; any other JSONPath gives an array. A CEL error
 * on one input is reported for that input, not thrown.
 */
export function applyMapping(
  mapping: Mapping,
  payload: unknown,
  headers: Record<string, string>,
): { inputs: Record<string, unknown>; errors: FieldError[] } {
  const problems = mappingProblems(mapping);
  const errors = problems.map(asFieldError);
  if (problems.some((p) => p.name === null)) return { inputs: {}, errors };
  const bad = new Set(problems.map((p) => p.name));
  const inputs: [string, unknown][] = [];
  const budget = new CelBudget();
  const pathBudget: JsonPathBudget = { work: 0 };
  // The payload converted for CEL once, on the first CEL input, however many there are.
  let celContext: Record<string, unknown> | undefined;
  const context = () => {
    celContext ??= { payload: toCel(payload ?? null), headers };
    return celContext;
  };
  for (const [name, expression] of Object.entries(mapping)) {
    if (bad.has(name)) continue;
    try {
      const value = evaluate(expression.trim(), payload, context, budget, pathBudget);
      if (value !== undefined) inputs.push([name, value]);
    } catch (err) {
      const message = `Could not evaluate the expression: ${firstLine(err)}.`;
      errors.push(asFieldError({ name, message }));
    }
  }
  // fromEntries defines own properties: no input name can reach Object.prototype.
  return { inputs: Object.fromEntries(inputs), errors };
}

/** What is wrong with one input, or the least its expression costs. */
function problemOf(name: string, expression: string): string | { leastCost: number } {
  const nameCheck = InputName.safeParse(name);
  if (!nameCheck.success) return nameCheck.error.issues[0]?.message ?? "Not an input name.";
  const expressionCheck = Expression.safeParse(expression);
  if (!expressionCheck.success)
    return expressionCheck.error.issues[0]?.message ?? "Not an expression.";
  const source = expressionCheck.data;
  if (isJsonPath(source)) {
    let rule: string | undefined;
    try {
      rule = jsonPathRuleProblem(parseJsonPath(source));
    } catch (err) {
      return `Not a JSONPath (RFC 9535) expression: ${jsonPathError(err)}.`;
    }
    return rule ? `This JSONPath is refused: ${rule}.` : { leastCost: 0 };
  }
  try {
    const error = cel.problem(source);
    if (error) return `Not a CEL expression over payload and headers: ${firstLine(error)}.`;
    return { leastCost: cel.leastCost(source) };
  } catch (err) {
    return `Not a CEL expression over payload and headers: ${firstLine(err)}.`;
  }
}

// RFC 9535's singular query: `$` then only `.name`, `['name']` and `[index]` segments.
const SINGULAR =
  /^\$(?:\.[A-Za-z_][A-Za-z0-9_]*|\[-?\d+\]|\['(?:[^'\\]|\\.)*'\]|\["(?:[^"\\]|\\.)*"\])*$/;

function isJsonPath(expression: string): boolean {
  return expression.startsWith("$");
}

function evaluate(
  expression: string,
  payload: unknown,
  celContext: () => Record<string, unknown>,
  budget: CelBudget,
  pathBudget: JsonPathBudget,
): unknown {
  if (isJsonPath(expression)) {
    // Under a budget (lib/util/jsonpath.ts): past it, this input's error, this delivery only.
    const nodes = queryBounded(payload, parseJsonPath(expression), pathBudget);
    // A singular query (names and indexes only) gives its value, or nothing; any other (a
    // wildcard, a filter, a slice) always gives an array, however many nodes it matched today.
    return SINGULAR.test(expression) ? nodes[0] : nodes;
  }
  return fromCel(cel.evaluate(expression, celContext(), budget));
}

// Peggy's message lists every character class it expected, which reads as noise: say where it
// stopped instead.
function jsonPathError(err: unknown): string {
  const column = errorField(errorField(errorField(err, "location"), "start"), "column");
  if (typeof column !== "number") return firstLine(err);
  const found = errorField(err, "found");
  if (typeof found !== "string") return `it ends too early, at character ${column}`;
  return `unexpected ${JSON.stringify(found)} at character ${column}`;
}

// cel-js's messages show the expression under its first line: one line is enough here.
function firstLine(err: unknown): string {
  return (errorMessage(err).split("\n")[0] ?? "").replace(/\.$/, "");
}
