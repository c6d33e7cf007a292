import { z } from "zod";
import type { LlmParams } from "@/lib/llm/model-ref";
import { LlmFieldSchema } from "./agent-llm";
import type { FlowAction } from "./flow-schema";
import type { InputSpec } from "./input-schema";
import type { McpServerDef } from "./mcp-config";
import { RequiresApprovalSchema } from "./requires-approval";
import { ReviewBlockSchema } from "./review-policy";

// The crew definition as the engine uses it, whichever file format it came from.
const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

export const AgentSchema = z.object({
  role: text("role"),
  goal: text("goal"),
  backstory: text("backstory"),
  // A model name or CrewAI's LLM settings; read by agent-llm.ts into `llm` + `llm_params` below.
  llm: LlmFieldSchema.optional(),
  // Names are checked against the toolkit (tool-catalog.ts) by the loader, which
  // names the agent and what exists; CrewAI's class names (SerperDevTool, …) stand for ours.
  tools: z.array(z.string({ error: "tools are listed by name" }).trim().min(1)).default([]),
  // CrewAI's: MCP servers the agent may use, whole (`server`) or one tool (`server/tool`); the
  // servers are declared under the crew's `mcp_servers` or in Settings (lib/tools/mcp).
  mcps: z.array(z.string({ error: "mcps are listed by name" }).trim().min(1)).default([]),
  requires_approval: RequiresApprovalSchema.optional(),
  // The most tool calls in one task attempt (TOOL_MAX_CALLS_PER_TASK unless set).
  max_tool_calls: z.number().int().positive().max(1000).optional(),
  apps: z.array(z.string().min(1)).default([]),
  // CrewAI's: may hand work to (or ask) the crew's other agents through two tools.
  allow_delegation: z.boolean().optional(),
  // CrewAI's: the most model calls of one task before the agent must answer.
  max_iter: z.number().int().positive().max(100).optional(),
  // CrewAI's: the most model calls a minute this agent makes.
  max_rpm: z.number().int().positive().optional(),
});

export const TaskSchema = z.object({
  name: z.string().trim().min(1).optional(),
  description: text("description"),
  // May be empty, as CrewAI takes it (a warning at load says the agent is told nothing).
  expected_output: z.string({ error: "expected_output must be a string" }).trim(),
  // Often absent in CrewAI projects (crew.py sets it); the loader fills it in or says what to
  // add. Under a hierarchical process it is the one agent the manager may hand the task to.
  agent: z.string({ error: "agent must name an agent of this crew" }).min(1).optional(),
  human_input: z.boolean().default(false),
  // CrewAI's: runs beside the async tasks next to it; the next task that is not async waits.
  async_execution: z.boolean().optional(),
  context: z.array(z.string().min(1)).optional(),
  max_review_rounds: z.number().int().positive().optional(),
  // Crewdeck's: who reviews, how many must approve, a response form, a deadline (implies
  // human_input). See review-policy.ts.
  review: ReviewBlockSchema.optional(),
  timeout_seconds: z.number().int().positive().optional(),
  // Structured output: a JSON Schema, or (as CrewAI's @CrewBase takes it) a pydantic class's
  // name, read from the project's Python (python-models.ts); one not found is warned about.
  output_json: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  output_pydantic: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  // Kept per run as a downloadable artifact; {input} placeholders are filled from the run.
  output_file: z.string().trim().min(1).optional(),
  // CrewAI's LLM guardrails: plain-language rules the agent's model checks the output against.
  guardrail: z.string().trim().min(1).optional(),
  guardrails: z.array(z.string().trim().min(1)).optional(),
  guardrail_max_retries: z.number().int().min(0).max(10).optional(),
});

const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const idRecord = <T extends z.ZodType>(item: T, what: string) =>
  z
    .record(z.string().regex(ID, `${what} ids are letters, digits, '_' or '-'`), item)
    .refine((r) => Object.keys(r).length > 0, `at least one ${what} is required`);

const RetentionDaysSchema = z.union([z.number().int().positive(), z.literal("forever")], {
  error: "retention_days is a whole number of days (at least 1) or 'forever'",
});

export const CrewFileSchema = z.object({
  name: text("name").optional(),
  description: z.string().optional(),
  agents: idRecord(AgentSchema, "agent"),
  tasks: idRecord(TaskSchema, "task"),
  // CrewAI's: sequential (tasks in order, each by its agent) or hierarchical (a manager agent
  // gives each task to the agent it chooses and answers with their work).
  process: z
    .enum(["sequential", "hierarchical"], {
      error: "process is 'sequential' or 'hierarchical'",
    })
    .default("sequential"),
  manager_llm: AgentSchema.shape.llm,
  manager_agent: z.string().trim().min(1).optional(),
  // CrewAI's: the most model calls a minute for the whole crew (over each agent's own).
  max_rpm: z.number().int().positive().optional(),
  // Typed inputs; checked by parseInputBlock (input-block.ts), which names the input at fault.
  inputs: z.unknown().optional(),
  // MCP servers the crew's agents may use; checked by mcp-config.ts.
  mcp_servers: z.unknown().optional(),
  // Crewdeck's: how many days this crew's finished runs are kept, over RETENTION_DAYS
  // ("forever": never deleted). See lib/retention.
  retention_days: RetentionDaysSchema.optional(),
});

export type AgentDef = Omit<z.infer<typeof AgentSchema>, "llm" | "tools" | "mcps"> & {
  /** Absent on crews read before MCP servers existed (stored snapshots). */
  mcps?: string[];
  id: string;
  llm?: string; // `provider/model` or `offline`, whatever spelling the file used
  llm_params?: LlmParams;
  /** Built-in tools by their own names (aliases resolved at load). */
  tools: string[];
};
export type TaskDef = Omit<
  z.infer<typeof TaskSchema>,
  "agent" | "output_json" | "output_pydantic"
> & {
  /** The JSON Schema its output must match (a class's name was resolved at load). */
  output_json?: Record<string, unknown>;
  id: string;
  name: string;
  /** The agent that runs the task: under a hierarchical process, the manager. */
  agent: string;
  /** Hierarchical: the one agent the manager may hand this task to (the task's own `agent:`). */
  delegate_to?: string;
};
export type CrewProcess = "sequential" | "hierarchical";

export type CrewDef = {
  slug: string;
  name: string;
  description: string | null;
  agents: AgentDef[];
  tasks: TaskDef[]; // in the order written: the order they run
  inputs: string[];
  // The inputs typed, in the same order; absent on crews read before typed inputs existed.
  input_specs?: InputSpec[];
  source: string[]; // files it was read from, for messages
  // Absent on crews read before these existed (stored snapshots): sequential, no crew limit.
  process?: CrewProcess;
  /** Hierarchical: the agent that hands out the tasks (one of `agents`, or made for it). */
  manager?: AgentDef;
  max_rpm?: number;
  /** MCP servers declared by the crew (absent on crews read before they existed). */
  mcp_servers?: McpServerDef[];
  /** Days its finished runs are kept, over RETENTION_DAYS (lib/retention); absent: the default. */
  retention_days?: number | "forever";
  /** A CrewAI Flow: its methods are `tasks`, run by the flow runner (lib/flows), not in order. */
  flow?: FlowPlan;
};

/** `file` is relative to CREWS_DIR; `line` is where `key` is written, when it is (key-lines.ts). */
export type CrewLoadError = {
  slug: string;
  file: string;
  key: string;
  line?: number;
  reason: string;
};
export type CrewWarning = {
  slug: string;
  file: string;
  key: string;
  line?: number;
  message: string;
};

// A CrewAI Flow as Crewdeck runs it (compile-flow.ts): the declaration as read, and every crew
// its methods call, made ready at load.

/** `a`, `{or: [...]}`, `{and: [...]}` (crewai/flow/flow_definition.py FlowDefinitionCondition). */
export type FlowCondition = string | { or: FlowCondition[] } | { and: FlowCondition[] };

type FlowFeedback = {
  message: string;
  /** The outcomes the reviewer chooses among; the method then routes like a router. */
  emit: string[];
  /** The outcome taken when the feedback is empty, or a deadline passes. */
  default_outcome: string | null;
  /** The model that reads free-text feedback into one of `emit` (CrewAI's default: gpt-4o-mini). */
  llm: string | null;
};

export type FlowMethod = {
  name: string;
  description: string | null;
  /** `true`: runs at kickoff; a condition: runs when a router emits it. */
  start: boolean | FlowCondition;
  listen: FlowCondition | null;
  router: boolean;
  /** A router's outcomes (a method with feedback: its feedback's). */
  emit: string[];
  feedback: FlowFeedback | null;
  do: FlowAction;
};

type FlowStateKind = "dict" | "json_schema" | "pydantic" | "unknown";

export type FlowPlan = {
  name: string;
  file: string;
  state: {
    kind: FlowStateKind;
    /** Checked on kickoff and after every method (absent: a dict, anything goes). */
    schema: Record<string, unknown> | null;
    defaults: Record<string, unknown>;
  };
  max_method_calls: number;
  /** In the order written. */
  methods: FlowMethod[];
  /** The crew each `call: crew` or `call: agent` runs, by `method` or `method/step`. */
  crews: Record<string, CrewDef>;
};
