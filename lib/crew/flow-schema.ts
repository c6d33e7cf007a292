import { z } from "zod";
import { isObject } from "./read-files";

// CrewAI's declarative Flow, `flow.yaml` with `schema: crewai.flow/v1`, as its own models read it
// (crewai/flow/flow_definition.py, crewai/project/crew_definition.py). Where CrewAI forbids
// unknown keys (extra="forbid") so does this; where it keeps them (extra="allow") they are kept;
// elsewhere they are dropped, and the loader warns about them.

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const json = z.record(z.string(), z.unknown());

/** `a`, `{or: [...]}`, `{and: [...]}`: any mapping loads in CrewAI, as here (checked after). */
const Condition = z.union([z.string(), json]);

const PythonRef = z.object({
  python: z
    .string()
    .trim()
    .refine((p) => p.includes("."), "a Python reference is a dotted import path"),
});

const LlmDefinition = z.looseObject({ model: z.string(), max_tokens: z.int().nullish() });

const CrewAgent = z.looseObject({
  role: z.string().nullish(),
  goal: z.string().nullish(),
  backstory: z.string().nullish(),
  type: z.union([z.string(), PythonRef]).nullish(),
  from_repository: z.string().nullish(),
  settings: json.nullish(),
  llm: z.union([z.string(), LlmDefinition]).nullish(),
  planning_config: json.nullish(),
  allow_delegation: z.boolean().nullish(),
  max_iter: z.int().nullish(),
  max_rpm: z.int().nullish(),
  max_execution_time: z.int().nullish(),
  tools: z.array(z.union([z.string(), json])).nullish(),
  apps: z.array(z.string()).nullish(),
  mcps: z.array(z.union([z.string(), json])).nullish(),
});

const CrewTask = z.looseObject({
  description: z.string(),
  expected_output: z.string(),
  name: z.string().nullish(),
  agent: z.string().nullish(),
  context: z.array(z.string()).nullish(),
  type: z.union([z.string(), PythonRef]).nullish(),
});

/** `agents` as a mapping, or as CrewAI also takes it: a list of `{name, ...}` or `{name: {...}}`. */
const InlineAgents = z.preprocess(
  (value, ctx) => {
    if (!Array.isArray(value)) return value;
    const agents: Record<string, unknown> = {};
    for (const [index, item] of value.entries()) {
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        ctx.addIssue({
          code: "custom",
          message: `agents[${index}] must be an inline agent mapping`,
        });
        return z.NEVER;
      }
      const entries = Object.entries(item);
      if ("name" in item) {
        const name = item.name;
        if (typeof name !== "string" || !name) {
          ctx.addIssue({
            code: "custom",
            message: `agents[${index}].name must be a non-empty string`,
          });
          return z.NEVER;
        }
        agents[name] = Object.fromEntries(entries.filter(([k]) => k !== "name"));
      } else if (entries.length === 1 && entries[0]) {
        const [name, definition] = entries[0];
        agents[name] = definition;
      } else {
        ctx.addIssue({
          code: "custom",
          message: `agents[${index}] must include a name field or be a one-key mapping`,
        });
        return z.NEVER;
      }
    }
    return agents;
  },
  z.record(z.string(), CrewAgent),
);

const InlineCrew = z
  .looseObject({
    agents: InlineAgents,
    tasks: z.array(CrewTask),
    inputs: json.nullish(),
    manager_agent: z.union([z.string(), PythonRef]).nullish(),
  })
  .refine((c) => Object.keys(c.agents).length > 0, "crew action requires inline agent definitions")
  .refine((c) => c.tasks.length > 0, "crew action requires a non-empty tasks list");

const Template = z.unknown(); // strings may hold ${...} CEL; any JSON value otherwise

const CodeAction = z.strictObject({
  call: z.literal("code"),
  ref: z.string(),
  with: z.record(z.string(), Template).nullish(),
});
const ToolAction = z.strictObject({
  call: z.literal("tool"),
  ref: z.string(),
  with: z.record(z.string(), Template).nullish(),
});
const CrewAction = z
  .strictObject({
    call: z.literal("crew"),
    from_declaration: z.string().nullish(),
    with: InlineCrew.nullish(),
    inputs: z.record(z.string(), Template).nullish(),
  })
  .refine(
    (a) => Boolean(a.from_declaration) !== (a.with != null),
    "crew action requires exactly one of from_declaration or with",
  );
const AgentAction = z.strictObject({
  call: z.literal("agent"),
  with: CrewAgent.extend({
    input: z.string({ error: "agent.input must be a string" }),
    response_format: PythonRef.nullish(),
  }),
});
const ExpressionAction = z.strictObject({ call: z.literal("expression"), expr: z.string() });
const ScriptAction = z.strictObject({
  call: z.literal("script"),
  code: z.string(),
  language: z.literal("python").default("python"),
});
// The actions a method or an `each` step may take; a method may also take `each` itself.
const ATOMIC_ACTIONS = [
  CodeAction,
  ToolAction,
  CrewAction,
  AgentAction,
  ExpressionAction,
  ScriptAction,
] as const;
const AtomicAction = z.discriminatedUnion("call", ATOMIC_ACTIONS);

const EachStep = z.strictObject({
  name: z.string().regex(NAME, `each.do step names must match ${NAME.source}`),
  if: z.string().nullish(),
  action: AtomicAction,
});
const EachAction = z
  .strictObject({ call: z.literal("each"), in: z.string(), do: z.array(EachStep) })
  .refine((a) => a.do.length > 0, "each.do must contain at least one step")
  .refine(
    (a) => new Set(a.do.map((s) => s.name)).size === a.do.length,
    "each.do step names must be unique",
  );

/**
 * A method's `do`. CrewAI reads it as a plain union, in which a mapping without `call` can only be
 * code (its `call` defaults to it); read by its `call` here, so a mistake is named in its own terms.
 */
const Action = z.preprocess(
  (v) => (isObject(v) && !("call" in v) ? { ...v, call: "code" } : v),
  z.discriminatedUnion("call", [...ATOMIC_ACTIONS, EachAction]),
);
export type FlowAction = z.infer<typeof Action>;

const HumanFeedback = z.object({
  message: z.string(),
  emit: z.array(z.string()).nullish(),
  llm: z.unknown().default("gpt-4o-mini"),
  default_outcome: z.string().nullish(),
  metadata: json.nullish(),
  provider: z.unknown().optional(),
  learn: z.boolean().default(false),
  learn_source: z.string().default("hitl"),
  learn_strict: z.boolean().default(false),
  // Crewdeck's, beside CrewAI's keys (which ignores it): who reviews, quorum, deadline.
  review: z.unknown().optional(),
});

const Persistence = z.object({
  enabled: z.boolean().default(false),
  verbose: z.boolean().default(false),
  persistence: z.unknown().optional(),
});

const FlowMethodFields = z.object({
  description: z.string().nullish(),
  do: Action,
  start: z.union([z.boolean(), Condition]).nullish(),
  listen: Condition.nullish(),
  router: z.boolean().default(false),
  emit: z.array(z.string()).nullish(),
  human_feedback: HumanFeedback.nullish(),
  persist: Persistence.nullish(),
});
/** The keys of a method CrewAI knows; others are dropped (and warned of by the loader). */
export const FLOW_METHOD_KEYS = Object.keys(FlowMethodFields.shape);
const FlowMethodSchema = FlowMethodFields
  // CrewAI's canonical shape: feedback that emits outcomes routes like a router.
  .transform((m) => (m.human_feedback?.emit?.length ? { ...m, router: true, emit: undefined } : m));

const defaults = { default: json.nullish() };
const State = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("dict"), ...defaults }),
  z.strictObject({
    type: z.literal("pydantic"),
    ref: z.string().nullish(),
    json_schema: json.nullish(),
    ...defaults,
  }),
  z.strictObject({ type: z.literal("json_schema"), json_schema: json, ...defaults }),
  z.strictObject({ type: z.literal("unknown"), ref: z.string().nullish(), ...defaults }),
]);

const Config = z.object({
  tracing: z.boolean().nullish(),
  stream: z.boolean().default(false),
  memory: json.nullish(),
  input_provider: z.string().nullish(),
  suppress_flow_events: z.boolean().default(false),
  max_method_calls: z.int().default(100),
  defer_trace_finalization: z.boolean().default(false),
  checkpoint: z.union([z.boolean(), json]).nullish(),
});

export const FlowFileSchema = z.object({
  schema: z.literal("crewai.flow/v1").default("crewai.flow/v1"),
  name: z.string(),
  description: z.string().nullish(),
  state: State.nullish(),
  config: Config.default(Config.parse({})),
  persist: Persistence.nullish(),
  conversational: json.nullish(),
  methods: z
    .record(z.string().regex(NAME, `Flow method names must match ${NAME.source}`), FlowMethodSchema)
    .default({}),
});
export type FlowFile = z.infer<typeof FlowFileSchema>;
