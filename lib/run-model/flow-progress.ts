import type { FlowCondition, FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";

// Where a flow run stands, kept in `executions.flow` and written with every step, so a worker
// that takes the run over goes on from there: a method whose end was written never runs again.
// Which methods a finished one sets off is CrewAI's rule (crewai/flow/runtime/__init__.py:
// _find_triggered_methods, _condition_satisfied), applied one method at a time.

/** A method running, or waiting for a nested run or for feedback. */
export type FlowCurrent = {
  method: string;
  /** The flow's count of method runs when it started: names its nested runs. */
  run: number;
  trigger: string | null;
  started_at: string;
  /**
   * Inside `each`: the item and step under way, and what its steps gave so far. What finished
   * items gave is kept beside the row (flow_each_items), so this stays small however many.
   */
  each?: {
    index: number;
    step: number;
    local: Record<string, unknown>;
    last: unknown;
    /** Written before flow_each_items: the list, and what the finished items gave. */
    items?: unknown[];
    results?: unknown[];
  };
  /** The method's output, kept while a reviewer's feedback is awaited. */
  output?: unknown;
  awaiting_feedback?: boolean;
  /** The nested runs it started. */
  children?: string[];
};

/** One method run, in the order they ended: the path the flow took. */
type FlowStep = {
  method: string;
  run: number;
  trigger: string | null;
  /** A router's (or a reviewer's) outcome. */
  outcome?: string;
  feedback?: string;
  children: string[];
  started_at: string;
  finished_at: string;
};

export type FlowProgress = {
  state: Record<string, unknown>;
  /** The last output of each finished method: CEL's `outputs`. */
  outputs: Record<string, unknown>;
  /** Methods to run, in order. */
  queue: { method: string; trigger: string | null }[];
  current: FlowCurrent | null;
  /** Events seen by each listener still waiting on an `and` (CrewAI's _pending_events). */
  pending_events: Record<string, string[]>;
  /** Multi-event `or` listeners that fired this cycle (fire once until a cycle re-arms them). */
  fired_or: string[];
  /** How often each listener ran (max_method_calls). */
  calls: Record<string, number>;
  completed: string[];
  /** Method runs started so far. */
  runs: number;
  steps: FlowStep[];
  last_output: unknown;
  /** Tokens of the flow's own model calls (reading feedback); its nested runs' are in their rows. */
  own_usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
};

const isAnd = (c: FlowCondition): c is { and: FlowCondition[] } =>
  typeof c === "object" && "and" in c;
const branches = (c: Exclude<FlowCondition, string>) => (isAnd(c) ? c.and : c.or);

function conditionSatisfied(condition: FlowCondition, events: ReadonlySet<string>): boolean {
  if (typeof condition === "string") return events.has(condition);
  const parts = branches(condition).map((b) => conditionSatisfied(b, events));
  return isAnd(condition) ? parts.every(Boolean) : parts.some(Boolean);
}

function conditionEvents(condition: FlowCondition): string[] {
  return typeof condition === "string" ? [condition] : branches(condition).flatMap(conditionEvents);
}

const isMultiEventOr = (c: FlowCondition) =>
  typeof c === "object" && !isAnd(c) && branches(c).length > 1;

const startCondition = (m: FlowMethod) => (typeof m.start === "boolean" ? null : (m.start ?? null));

/** The methods a kickoff runs: the unconditional starts, or every start when there are none. */
function kickoffMethods(plan: FlowPlan): string[] {
  const starts = plan.methods.filter((m) => m.start !== false && m.start !== null);
  const plain = starts.filter((m) => m.start === true);
  return (plain.length ? plain : starts).map((m) => m.name);
}

export function initialProgress(plan: FlowPlan, state: Record<string, unknown>): FlowProgress {
  return {
    state,
    outputs: {},
    queue: kickoffMethods(plan).map((method) => ({ method, trigger: null })),
    current: null,
    pending_events: {},
    fired_or: [],
    calls: {},
    completed: [],
    runs: 0,
    steps: [],
    last_output: null,
  };
}

/** Records `event` for a waiting condition; true (and forgotten) once it is satisfied. */
function conditionMet(
  p: FlowProgress,
  condition: FlowCondition,
  event: string,
  key: string,
): boolean {
  const seen = new Set([...(p.pending_events[key] ?? []), event]);
  if (!conditionSatisfied(condition, seen)) {
    p.pending_events[key] = [...seen];
    return false;
  }
  delete p.pending_events[key];
  return true;
}

function triggered(plan: FlowPlan, p: FlowProgress, event: string, routers: boolean): string[] {
  const out: string[] = [];
  for (const m of plan.methods) {
    if (m.listen === null || m.start !== false || m.router !== routers) continue;
    const once = isMultiEventOr(m.listen) && !m.router;
    if (once && p.fired_or.includes(m.name)) continue;
    if (conditionMet(p, m.listen, event, m.name)) {
      out.push(m.name);
      if (once) p.fired_or.push(m.name);
    }
  }
  return out;
}

/**
 * What `method` ending (with a router's `outcome`) sets off, queued: routers first (they decide
 * where the flow goes), then listeners; an outcome re-arms the `or` listeners that name it, and
 * may start a conditional start method. Returns a new progress; `p` is not changed.
 */
export function afterMethod(
  plan: FlowPlan,
  before: FlowProgress,
  method: string,
  outcome: string | undefined,
): FlowProgress {
  const p: FlowProgress = structuredClone(before);
  const front: FlowProgress["queue"] = [];
  const back: FlowProgress["queue"] = [];
  for (const event of outcome !== undefined ? [method, outcome] : [method]) {
    if (event === outcome) {
      const listeners = plan.methods.filter(
        (m) => m.listen && p.fired_or.includes(m.name) && conditionEvents(m.listen).includes(event),
      );
      p.fired_or = p.fired_or.filter((n) => !listeners.some((m) => m.name === n));
    }
    for (const name of triggered(plan, p, event, true))
      front.push({ method: name, trigger: event });
    for (const name of triggered(plan, p, event, false))
      back.push({ method: name, trigger: event });
    if (event === outcome)
      for (const m of plan.methods) {
        const condition = startCondition(m);
        if (condition && conditionMet(p, condition, event, `start:${m.name}`))
          back.push({ method: m.name, trigger: event });
      }
  }
  p.queue = [...front, ...p.queue, ...back];
  return p;
}

/**
 * Takes the next method off the queue as the current one; CrewAI's loop guard counts listener
 * runs (a start method is not counted), and a method running again starts a new cycle of `or`s.
 */
export function startNext(plan: FlowPlan, before: FlowProgress, now: Date): FlowProgress {
  const [next, ...rest] = before.queue;
  if (!next) return before;
  const p: FlowProgress = structuredClone(before);
  const method = plan.methods.find((m) => m.name === next.method);
  if (method && method.start === false) {
    const count = (p.calls[next.method] ?? 0) + 1;
    if (count > plan.max_method_calls)
      throw new FlowLoopError(
        `Method '${next.method}' has been called ${plan.max_method_calls} times in this flow execution, which indicates an infinite loop. This commonly happens when a @listen label matches the method's own name.`,
      );
    p.calls[next.method] = count;
  }
  if (p.completed.includes(next.method)) p.fired_or = [];
  p.queue = rest;
  p.runs += 1;
  p.current = {
    method: next.method,
    run: p.runs,
    trigger: next.trigger,
    started_at: now.toISOString(),
  };
  return p;
}

export class FlowLoopError extends Error {}
