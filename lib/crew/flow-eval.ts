import { errorMessage } from "@/lib/errors";
import { CelBudget } from "@/lib/util/cel";
import { fromCel, toCel } from "@/lib/util/cel-values";
import { flowCel, templateSegments } from "./flow-cel";

// CEL as a flow's methods run it (crewai/flow/expressions.py): `expr`, `each.in` and a step's
// `if` are whole expressions; in a template (inputs, with, an agent's input) a string that is one
// `${...}` alone keeps its value's type, any other string with `${...}` becomes text (non-text
// values as JSON, null as nothing), and everything else is left as written.

/** What CEL reads: `state`, `outputs` and, inside `each`, `item`. */
export type CelContext = Record<string, unknown>;

export class FlowExpressionError extends Error {}

/** Evaluates one expression, written bare or wrapped in `${...}`, within its cost budget. */
export function evaluateCel(
  expression: string,
  context: CelContext,
  budget = new CelBudget(),
): unknown {
  let source = expression.trim();
  if (source.startsWith("${") && source.endsWith("}")) source = source.slice(2, -1).trim();
  if (!source) throw new FlowExpressionError("empty CEL expression");
  try {
    const values = Object.fromEntries(Object.entries(context).map(([k, v]) => [k, toCel(v)]));
    return fromCel(flowCel.evaluate(source, values, budget));
  } catch (err) {
    throw new FlowExpressionError(
      `failed to evaluate CEL expression ${JSON.stringify(source)}: ${errorMessage(err).split("\n")[0]}`,
    );
  }
}

/**
 * A template with its `${...}` filled in, as CrewAI renders it. Its expressions share one cost
 * budget, as a trigger's mapping does: a template of many cannot cost many times the limit.
 */
export function renderTemplate(
  value: unknown,
  context: CelContext,
  budget = new CelBudget(),
): unknown {
  if (typeof value === "string") return renderString(value, context, budget);
  if (Array.isArray(value)) return value.map((v) => renderTemplate(v, context, budget));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, renderTemplate(v, context, budget)]),
    );
  return value;
}

function renderString(value: string, context: CelContext, budget: CelBudget): unknown {
  const segments = templateSegments(value);
  const expressions = segments.filter((s) => typeof s !== "string");
  if (!expressions.length) return value;
  const [only] = expressions;
  if (expressions.length === 1 && only && segments.every((s) => typeof s !== "string" || !s.trim()))
    return evaluateCel(only.cel, context, budget);
  return segments
    .map((s) => {
      if (typeof s === "string") return s;
      const result = evaluateCel(s.cel, context, budget);
      if (result === null || result === undefined) return "";
      return typeof result === "string" ? result : JSON.stringify(result);
    })
    .join("");
}
