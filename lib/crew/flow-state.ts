import { errorMessage, errors } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/read-json";
import { valueErrors } from "@/lib/outputs/structured-output";
import { assertEachLimits } from "./flow-each";
import type { InputScalar } from "./input-schema";
import type { FlowPlan } from "./schema";

/**
 * A flow's state at kickoff, as CrewAI builds it: its defaults, then the inputs. A dict state
 * takes every input; a typed one (json_schema, pydantic's schema) its fields, and must then
 * match its schema (422 naming what does not). An `each` over the state is checked against its
 * cap now (flow-each.ts).
 */
export function kickoffState(
  plan: FlowPlan,
  typed: Record<string, InputScalar>,
  given: Record<string, unknown>,
  jsonInputs: ReadonlySet<string>,
): Record<string, unknown> {
  const state = stateOf(plan, typed, given, jsonInputs);
  assertEachLimits(plan, state);
  return state;
}

function stateOf(
  plan: FlowPlan,
  typed: Record<string, InputScalar>,
  given: Record<string, unknown>,
  jsonInputs: ReadonlySet<string>,
): Record<string, unknown> {
  if (!plan.state.schema) {
    const { id: _id, ...rest } = given; // CrewAI's `id` restores a saved state: not an input
    return { ...plan.state.defaults, ...rest };
  }
  const state: Record<string, unknown> = { ...plan.state.defaults };
  for (const [name, value] of Object.entries(typed))
    state[name] =
      jsonInputs.has(name) && typeof value === "string" ? jsonInput(name, value) : value;
  const problems = valueErrors(state, plan.state.schema);
  if (problems.length)
    throw errors.unprocessable(
      `The inputs do not make a valid state for flow '${plan.name}': ${problems.join("; ")}. GET /inputs lists them.`,
      { errors: problems.map((message) => ({ path: "inputs", message })) },
    );
  return state;
}

/** A json input's text as its value, held to a body's checks (depth, NUL, lone surrogates). */
function jsonInput(name: string, text: string): unknown {
  try {
    return parseJsonText(text, `The input '${name}'`);
  } catch (err) {
    throw errors.unprocessable(errorMessage(err), {
      errors: [{ path: `inputs.${name}`, message: errorMessage(err) }],
    });
  }
}
