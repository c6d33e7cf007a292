import { EACH_MAX_ITEMS, eachTooLong } from "@/lib/crew/flow-each";
import { evaluateCel } from "@/lib/crew/flow-eval";
import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";
import type { FlowAction } from "@/lib/crew/flow-schema";
import type { Db } from "@/lib/db/types";
import type { FlowCurrent } from "@/lib/run-model/flow-progress";
import { toCel } from "@/lib/util/cel-values";
import { type DoneItem, itemsBefore, keepItems } from "./each-items";
import { act, FlowStepError } from "./flow-actions";

/** A method's action run as far as it goes: to its output, or to a nested run to wait for. */
export type Ran =
  | { output: unknown; children: string[] }
  | { waiting: string; current: FlowCurrent };

type Each = Extract<FlowAction, { call: "each" }>;
type Cursor = NonNullable<FlowCurrent["each"]>;
/** One method's `each` action, in its flow run, from where the flow stands. */
type EachAt = {
  db: Db;
  flowId: string;
  plan: FlowPlan;
  method: FlowMethod;
  action: Each;
  cur: FlowCurrent;
};

// The loop gives the event loop a turn this often (items), or once an item ends this long (ms)
// after the last turn: one flow's list never holds the process that serves every request.
const TURN_EVERY_ITEMS = 100;
const TURN_EVERY_MS = 10;

/**
 * `each`: every item through the steps in turn; an item's output is its last step's. An item
 * costs the same however far the list has got: the state and the outputs are converted for CEL
 * once, what items give is appended, and what the finished ones gave is kept beside the row
 * (each-items.ts) when the flow lets go to wait for a nested run.
 */
export async function runEach({
  base,
  signal,
  ...each
}: EachAt & {
  base: { state: unknown; outputs: Record<string, unknown> };
  signal?: AbortSignal;
}): Promise<Ran> {
  const { db, flowId, method, action, cur } = each;
  const state = toCel(base.state);
  const outputs = toCel(base.outputs);
  const items = eachItems(
    method.name,
    cur.each?.items ?? evaluateCel(action.in, { state, outputs }),
  );
  const at = cursorOf(cur);
  // Items finished in memory: those of this turn, after those of a progress written before
  // items were kept beside the row.
  const done: DoneItem[] = (cur.each?.results ?? []).map((result, index) => ({
    index,
    result,
    children: [],
  }));
  const keptBefore = cur.each?.results ? 0 : at.index;
  const item: ItemRun = { ...each, at, children: [] };
  if (cur.each) item.children = [...(cur.children ?? [])];
  let turn = { items: 0, at: performance.now() };
  for (; at.index < items.length; at.index++) {
    const scope: Scope = { state, outputs, item: toCel(items[at.index]) };
    const waiting = await runItem(item, scope);
    if (waiting) {
      await keepItems(db, flowId, cur.run, done);
      return { waiting, current: { ...cur, each: at, children: item.children } };
    }
    done.push({ index: at.index, result: at.last, children: item.children });
    at.step = 0;
    at.local = {};
    at.last = null;
    item.children = [];
    if (++turn.items >= TURN_EVERY_ITEMS || performance.now() - turn.at >= TURN_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      turn = { items: 0, at: performance.now() };
    }
  }
  const all = [...(await itemsBefore(db, flowId, cur.run, keptBefore)), ...done];
  return { output: all.map((d) => d.result), children: all.flatMap((d) => d.children) };
}

/** The list `each.in` gave: an array within the bound, or the method fails saying why. */
export function eachItems(methodName: string, items: unknown): unknown[] {
  if (!Array.isArray(items))
    throw new FlowStepError(`method '${methodName}': each.in must evaluate to an array`);
  if (items.length > EACH_MAX_ITEMS) throw new FlowStepError(eachTooLong(methodName, items.length));
  return items;
}

/** Where the list stands: as written when a nested run was waited for, or at its start. */
export function cursorOf(cur: Pick<FlowCurrent, "each">): Cursor {
  return cur.each
    ? {
        index: cur.each.index,
        step: cur.each.step,
        local: { ...cur.each.local },
        last: cur.each.last,
      }
    : { index: 0, step: 0, local: {}, last: null };
}

/** One `each` as it runs its items: the cursor moves on, and the current item's nested runs. */
type ItemRun = EachAt & { at: Cursor; children: string[] };

/** The current item through the steps from the cursor's; the nested run it waits for, if any. */
async function runItem(
  { db, flowId, plan, method, action, cur, at, children }: ItemRun,
  itemScope: Scope,
): Promise<string | undefined> {
  let scope = Object.keys(at.local).length ? withLocal(itemScope, at.local) : itemScope;
  for (; at.step < action.do.length; at.step++) {
    const s: Each["do"][number] | undefined = action.do[at.step];
    if (!s) break;
    if (!stepApplies(method.name, s.if, scope)) continue;
    const ran = await act({
      db,
      flowId,
      plan,
      method: method.name,
      step: s.name,
      action: s.action,
      cel: scope,
      key: `${cur.run}/${at.index}/${s.name}`,
    });
    if ("waiting" in ran) return ran.waiting;
    if (ran.child && !children.includes(ran.child)) children.push(ran.child);
    at.local[s.name] = ran.output;
    at.last = ran.output;
    scope = withLocal(scope, { [s.name]: ran.output });
  }
  return undefined;
}

/** Whether a step runs for this item: no `if`, or one that is true (a boolean, or it fails). */
function stepApplies(methodName: string, condition: string | null | undefined, scope: Scope) {
  if (condition == null) return true;
  const pass = evaluateCel(condition, scope);
  if (typeof pass !== "boolean")
    throw new FlowStepError(`method '${methodName}': if expression must evaluate to a boolean`);
  return pass;
}

type Scope = { state: unknown; outputs: unknown; item: unknown };

/** The scope with an item's step outputs laid over the method's (which are not converted again). */
function withLocal(scope: Scope, local: Record<string, unknown>): Scope {
  const outputs = isRecord(scope.outputs) ? scope.outputs : {};
  return { ...scope, outputs: toCel({ ...outputs, ...local }) };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
