import type { z } from "zod";
import type { LlmFieldSchema } from "./agent-llm";
import type { JsonSchema } from "./read-pydantic";

// What crew.py says, as read-crew-py.ts reads it (the types, shared with read-crew-call.ts).

/** What a @task method says about its agent. */
type TaskAgentRef =
  | { kind: "agent"; method: string; taskMethod: string } // agent=self.<method>()
  | { kind: "none"; taskMethod: string } // no agent= at all
  | { kind: "unreadable"; expr: string; taskMethod: string }; // agent=<anything else>

type LlmField = z.infer<typeof LlmFieldSchema>;
export type AgentSettings = {
  llm?: LlmField;
  allow_delegation?: boolean;
  max_iter?: number;
  max_rpm?: number;
};
export type TaskSettings = { output_file?: string; guardrail?: string; guardrails?: string[] };
/** Something crew.py asks for that Crewdeck does not run: said in a warning, with its line. */
type CrewPyNote = { key: string; line: number; message: string };

export type CrewPy = {
  /** @agent method name → the agents.yaml key its config names (the method name without one). */
  agents: Map<string, string>;
  /** tasks.yaml key (from config=self.tasks_config[…], else the method name) → its agent. */
  tasks: Map<string, TaskAgentRef>;
  /** agents.yaml key → the tools its Agent(...) call passes in Python, as their class names. */
  agentTools: Map<string, string[]>;
  /** agents.yaml key → its Agent(...) call's `mcps=[…]`: the string entries, and how many others. */
  agentMcps: Map<string, { refs: string[]; other: number }>;
  /** tasks.yaml key → the pydantic class its Task(...) asks for (output_pydantic=/output_json=). */
  taskModels: Map<string, string>;
  /** The module's pydantic models as JSON Schema, by class name. */
  models: Map<string, JsonSchema>;
  /** tasks.yaml key → flags its Task(...) call sets with a literal (async_execution=True, …). */
  taskFlags: Map<string, { async_execution?: boolean; human_input?: boolean }>;
  /** agents.yaml key → Agent(...) keyword arguments that win over agents.yaml. */
  agentSettings: Map<string, AgentSettings>;
  /** tasks.yaml key → Task(...) keyword arguments that win over tasks.yaml. */
  taskSettings: Map<string, TaskSettings>;
  /** tasks.yaml key → the tools its Task(...) call passes (CrewAI: used for that task). */
  taskTools: Map<string, string[]>;
  /** What the @crew method's Crew(...) call sets: process, manager, rate limit. */
  crew: {
    process?: "sequential" | "hierarchical";
    manager_llm?: LlmField;
    manager_agent?: string;
    max_rpm?: number;
  };
  notes: CrewPyNote[];
};
