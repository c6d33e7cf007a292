import type { FlowMethod, FlowPlan } from "@/lib/crew/flow-plan";

// Flow plans as lib/crew/flow-plan.ts reads them from a flow's YAML, built in a line for the unit
// tests that decide on the plan alone (triggers, steps, forks).

/** A method that listens to nothing and evaluates `1`, but for what `m` sets. */
export const flowMethod = (name: string, m: Partial<FlowMethod> = {}): FlowMethod => ({
  name,
  description: null,
  start: false,
  listen: null,
  router: false,
  emit: [],
  feedback: null,
  do: { call: "expression", expr: "1" },
  ...m,
});

/** A dict-state flow of `methods`, with no crews, stopped after `max` method calls. */
export const flowPlan = (methods: FlowMethod[], max = 100): FlowPlan => ({
  name: "F",
  file: "flow.yaml",
  state: { kind: "dict", schema: null, defaults: {} },
  max_method_calls: max,
  methods,
  crews: {},
});
