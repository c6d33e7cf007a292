import type { z } from "zod";
import { parseModelRef } from "@/lib/llm/model-ref";
import { grantedActions } from "@/lib/tracker/actions";
import { assignTaskAgents, type TaskAgentSources } from "./assign-task-agents";
import { InputBlockError, parseInputBlock } from "./input-block";
import { type InputSpec, undeclaredInput } from "./input-schema";
import { findPlaceholders } from "./inputs";
import { LoadError, type Warn } from "./read-files";
import {
  type AgentDef,
  type AgentSchema,
  type CrewDef,
  isToolName,
  type TaskSchema,
  TOOL_NAMES,
} from "./schema";

// The checks every layout shares, once its files are read: agents' models, apps and tools, each
// task's agent and context, and the inputs. Errors name the file and key of the layout at hand.

type Where = { file: string; key: string };

export type CrewParts = {
  slug: string;
  name: string;
  description: string | null;
  agents: Array<[string, z.infer<typeof AgentSchema>]>; // in the order written
  tasks: Array<[string, z.infer<typeof TaskSchema>]>; // in the order written: the order they run
  source: string[];
  agentAt: (id: string, field: string) => Where;
  taskAt: (id: string, field: string) => Where;
  inputsFile: string;
  declared: InputSpec[] | undefined;
  taskAgents: Omit<TaskAgentSources, "agentIds">;
  warn: Warn;
};

export function finishCrew(p: CrewParts): CrewDef {
  const agents = p.agents.map(([id, a]): AgentDef => {
    const at = (field: string) => p.agentAt(id, field);
    const llmError = a.llm ? parseModelRef(a.llm).error : undefined;
    if (llmError) throw new LoadError(at("llm").file, at("llm").key, llmError);
    const apps = grantedActions(a.apps);
    if (apps.error) throw new LoadError(at("apps").file, at("apps").key, apps.error);
    const tools = a.tools.map((tool, i) => {
      if (isToolName(tool)) return tool;
      const where = at(`tools.${i}`);
      throw new LoadError(
        where.file,
        where.key,
        `unknown tool '${tool}' (agent ${id}): available tools are ${TOOL_NAMES.join(", ")}`,
      );
    });
    return { id, ...a, tools };
  });
  const agentIds = agents.map((a) => a.id);
  const assigned = assignTaskAgents(
    p.tasks.map(([id, t]) => ({ id, agent: t.agent })),
    { ...p.taskAgents, agentIds },
  );
  const seen: string[] = [];
  const tasks = p.tasks.map(([id, t]) => {
    const agent = assigned.get(id) ?? "";
    if (!agentIds.includes(agent)) {
      const where = p.taskAt(id, "agent");
      throw new LoadError(
        where.file,
        where.key,
        `'${agent}' is not an agent of this crew (agents: ${agentIds.join(", ")})`,
      );
    }
    for (const ref of t.context ?? []) {
      if (!seen.includes(ref)) {
        const where = p.taskAt(id, "context");
        throw new LoadError(where.file, where.key, `'${ref}' is not a task written before '${id}'`);
      }
    }
    seen.push(id);
    return { id, ...t, agent, name: t.name ?? id };
  });
  const placeholders = findPlaceholders([
    ...agents.flatMap((a) => [a.role, a.goal, a.backstory]),
    ...tasks.flatMap((t) => [t.description, t.expected_output]),
  ]);
  const { slug, name, description, source, declared } = p;
  if (!declared) return { slug, name, description, agents, tasks, inputs: placeholders, source };
  // Declared inputs first, in the order written; placeholders not declared follow as strings.
  for (const spec of declared) {
    if (!placeholders.includes(spec.name))
      p.warn(p.inputsFile, `inputs.${spec.name}`, "declared, but no {placeholder} uses it");
  }
  const names = new Set(declared.map((s) => s.name));
  const input_specs = [
    ...declared,
    ...placeholders.filter((x) => !names.has(x)).map(undeclaredInput),
  ];
  const inputs = input_specs.map((s) => s.name);
  return { slug, name, description, agents, tasks, inputs, input_specs, source };
}

/** A crew's `inputs:` block, checked; a mistake names the file and the input at fault. */
export function inputBlock(block: unknown, file: string) {
  try {
    return parseInputBlock(block);
  } catch (err) {
    if (err instanceof InputBlockError) throw new LoadError(file, err.key, err.message);
    throw err;
  }
}

export function titleFromSlug(slug: string) {
  const words = slug.replace(/[-_]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
