import { type CelContext, evaluateCel } from "@/lib/crew/flow-eval";
import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";
import type { FlowAction } from "@/lib/crew/flow-schema";
import type { Db } from "@/lib/db/types";
import type { FlowCurrent } from "@/lib/run-model/flow-progress";
import type { TokenUsage } from "@/lib/run-model/types";
import { act, FlowStepError } from "./flow-actions";

/** A method's action run as far as it goes: to its output, or to a nested run to wait for. */
export type Ran =
  | { output: unknown; children: string[]; usage: TokenUsage[] }
  | { waiting: string; current: FlowCurrent };

/** `each`: every item through the steps in turn; an item's output is its last step's. */
export async function runEach({
  db,
  flowId,
  plan,
  method,
  action,
  cur,
  base,
}: {
  db: Db;
  flowId: string;
  plan: FlowPlan;
  method: FlowMethod;
  action: Extract<FlowAction, { call: "each" }>;
  cur: FlowCurrent;
  base: CelContext & { outputs: Record<string, unknown> };
}): Promise<Ran> {
  let each = cur.each;
  if (!each) {
    const items = evaluateCel(action.in, base);
    if (!Array.isArray(items))
      throw new FlowStepError(`method '${method.name}': each.in must evaluate to an array`);
    each = { items, index: 0, step: 0, local: {}, last: null, results: [] };
  }
  const children: string[] = [];
  const usage: TokenUsage[] = [];
  for (
    ;
    each.index < each.items.length;
    each = { ...each, index: each.index + 1, step: 0, local: {}, last: null }
  ) {
    const item = each.items[each.index];
    for (; each.step < action.do.length; each = { ...each, step: each.step + 1 }) {
      const s: (typeof action.do)[number] | undefined = action.do[each.step];
      if (!s) break;
      const cel = { ...base, item, outputs: { ...base.outputs, ...each.local } };
      if (s.if != null) {
        const pass = evaluateCel(s.if, cel);
        if (typeof pass !== "boolean")
          throw new FlowStepError(
            `method '${method.name}': if expression must evaluate to a boolean`,
          );
        if (!pass) continue;
      }
      const done = await act({
        db,
        flowId,
        plan,
        method: method.name,
        step: s.name,
        action: s.action,
        cel,
        key: `${cur.run}/${each.index}/${s.name}`,
      });
      if ("waiting" in done) return { waiting: done.waiting, current: { ...cur, each } };
      if (done.child) children.push(done.child);
      if (done.usage) usage.push(done.usage);
      each = { ...each, local: { ...each.local, [s.name]: done.output }, last: done.output };
    }
    each = { ...each, results: [...each.results, each.last] };
  }
  return { output: each.results, children, usage };
}
