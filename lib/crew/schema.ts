import { z } from "zod";
import type { InputSpec } from "./input-schema";

// The crew definition as the engine uses it, whichever file format it came from.
const text = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .trim()
    .min(1, `${what} must not be empty`);

export const TOOL_NAMES = ["current_date", "word_count"] as const;

export const AgentSchema = z.object({
  role: text("role"),
  goal: text("goal"),
  backstory: text("backstory"),
  llm: z.string().trim().min(1).optional(),
  tools: z.array(z.enum(TOOL_NAMES)).default([]),
  apps: z.array(z.string().min(1)).default([]),
});

export const TaskSchema = z.object({
  name: z.string().trim().min(1).optional(),
  description: text("description"),
  expected_output: text("expected_output"),
  agent: z.string({ error: "agent must name an agent of this crew" }).min(1),
  human_input: z.boolean().default(false),
  context: z.array(z.string().min(1)).optional(),
  max_review_rounds: z.number().int().positive().optional(),
  timeout_seconds: z.number().int().positive().optional(),
  // Structured output: a JSON Schema (CrewAI names a pydantic class; a crew file carries the
  // schema itself). A bare class name in output_pydantic is refused at load (load-crews.ts).
  output_json: z.record(z.string(), z.unknown()).optional(),
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

export const CrewFileSchema = z.object({
  name: text("name").optional(),
  description: z.string().optional(),
  agents: idRecord(AgentSchema, "agent"),
  tasks: idRecord(TaskSchema, "task"),
  // Typed inputs; checked by parseInputBlock (input-block.ts), which names the input at fault.
  inputs: z.unknown().optional(),
});

export type AgentDef = z.infer<typeof AgentSchema> & { id: string };
export type TaskDef = z.infer<typeof TaskSchema> & { id: string; name: string };

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
};

export type CrewLoadError = { slug: string; file: string; key: string; reason: string };
export type CrewWarning = { slug: string; file: string; key: string; message: string };
