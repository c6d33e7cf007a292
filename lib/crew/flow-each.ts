import { errors } from "@/lib/errors";
import { evaluateCel } from "./flow-eval";
import type { FlowPlan } from "./schema";

// A flow's `each` runs every item of a list through its steps, and the list may be the caller's
// (an input of the kickoff): its length is capped, so that one request cannot keep a worker busy
// for hours (docs/flows.md).

/** The most items one `each` takes. */
export const EACH_MAX_ITEMS = 10_000;

/** Why a list of `count` items is refused. */
export const eachTooLong = (method: string, count: number) =>
  `method '${method}': each.in gave ${count} items; an each takes at most ${EACH_MAX_ITEMS}`;

/**
 * Refuses a kickoff whose state gives an `each` more items than it takes (422 naming the input).
 * An `each.in` that reads only the state is known now: a flow never changes its state. One that
 * reads `outputs` is known when the flow gets there, and fails the run then.
 */
export function assertEachLimits(plan: FlowPlan, state: Record<string, unknown>): void {
  for (const m of plan.methods) {
    if (m.do.call !== "each") continue;
    let source = m.do.in.trim();
    if (source.startsWith("${") && source.endsWith("}")) source = source.slice(2, -1).trim();
    if (/\b(?:outputs|item)\b/.test(source)) continue;
    // Most read one field, an input as it came: no need to evaluate anything.
    const field = /^state\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(source)?.[1];
    let items: unknown;
    try {
      if (!field) items = evaluateCel(source, { state });
      else if (Object.hasOwn(state, field)) items = state[field];
    } catch {
      continue; // the run fails on it, saying why
    }
    if (!Array.isArray(items) || items.length <= EACH_MAX_ITEMS) continue;
    throw errors.unprocessable(`${eachTooLong(m.name, items.length)}: send fewer items.`, {
      errors: [
        {
          path: field ? `inputs.${field}` : "inputs",
          message: `at most ${EACH_MAX_ITEMS} items (method '${m.name}' runs each through its steps)`,
        },
      ],
    });
  }
}
