import type { z } from "zod";
import { templateProblem } from "@/lib/outputs/output-file";
import { skippedPatternWarnings } from "@/lib/outputs/schema-patterns";
import { schemaError } from "@/lib/outputs/structured-output";
import { grantedActions } from "@/lib/tracker/actions";
import { findPlaceholders } from "@/lib/util/placeholders";
import { readAgentLlm } from "./agent-llm";
import { assignTaskAgents, type TaskAgentSources } from "./assign-task-agents";
import { InputBlockError, parseInputBlock } from "./input-block";
import { type InputSpec, undeclaredInput } from "./input-schema";
import type { McpServerDef } from "./mcp-config";
import { checkAgentMcps, inlineUrlServers } from "./mcp-servers";
import { type CrewSettings, checkAsyncTasks, ProcessError, resolveProcess } from "./process";
import { LoadError, type Warn } from "./read-files";
import type { AgentDef, AgentSchema, CrewDef, CrewFileSchema, TaskSchema } from "./schema";
import { searchSetupProblem } from "./search-setup";
import { catalogEntry, TOOL_CATALOG, TOOL_NAMES } from "./tool-catalog";

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
  /** The crew's own keys (process, manager, max_rpm) and where they are written. */
  settings?: CrewFileSettings;
  crewAt?: (key: string) => Where;
  /** The crew's MCP servers, read by the layout (lib/crew/mcp-servers.ts). */
  mcpServers?: McpServerDef[];
  /** The pydantic models the crew's Python defines or imports (python-models.ts), by name. */
  pythonModels?: { models: Map<string, Record<string, unknown>>; shown: string };
  /** The crew's `retention_days` (lib/retention), when written. */
  retentionDays?: number | "forever";
  warn: Warn;
};

type CrewFileSettings = Omit<CrewSettings, "manager_llm" | "manager_llm_params"> & {
  manager_llm?: z.infer<typeof CrewFileSchema>["manager_llm"];
};

export function finishCrew(p: CrewParts): CrewDef {
  const finished = finishCrewParts(p);
  // MCP: CrewAI's URL entries become the crew's servers; then agents' `mcps` are checked against
  // the crew's servers (the deployment's are known at run time).
  const { agents, servers } = inlineUrlServers(finished.agents, p.mcpServers ?? [], p.agentAt);
  checkAgentMcps(agents, servers, p.agentAt, p.warn);
  const crew: CrewDef = {
    ...finished,
    agents,
    ...(p.retentionDays !== undefined ? { retention_days: p.retentionDays } : {}),
  };
  return servers.length ? { ...crew, mcp_servers: servers } : crew;
}

/** An agent's model, apps and tools, checked; tools by their catalog names. */
function finishAgent(p: CrewParts, id: string, a: z.infer<typeof AgentSchema>): AgentDef {
  const at = (field: string) => p.agentAt(id, field);
  const { warnings, error, ...llm } = readAgentLlm(a.llm);
  for (const w of warnings) {
    const where = at(`llm${w.key ? `.${w.key}` : ""}`);
    p.warn(where.file, where.key, w.message);
  }
  if (error) throw new LoadError(at("llm").file, at("llm").key, error);
  const apps = grantedActions(a.apps);
  if (apps.error) throw new LoadError(at("apps").file, at("apps").key, apps.error);
  const tools = a.tools.map((tool, i) => {
    const entry = catalogEntry(tool);
    if (entry) return entry.name;
    const where = at(`tools.${i}`);
    throw new LoadError(
      where.file,
      where.key,
      `unknown tool '${tool}' (agent ${id}): available tools are ${TOOL_NAMES.join(", ")} (or CrewAI's ${TOOL_CATALOG.flatMap((e) => e.aliases).join(", ")}); MCP servers' tools go under mcps:`,
    );
  });
  // web_search loads without a provider (the crew still runs), but says so up front.
  const searchAt = tools.indexOf("web_search");
  const searchProblem = searchAt >= 0 ? searchSetupProblem() : undefined;
  if (searchProblem) {
    const where = at(`tools.${searchAt}`);
    p.warn(
      where.file,
      where.key,
      `web_search (agent ${id}): ${searchProblem}; the tool answers with this error until then`,
    );
  }
  return { id, ...a, ...llm, tools };
}

/** Each task with its agent (an agent of this crew), its context (tasks before it), its checks. */
function listTasks(p: CrewParts, agentIds: string[], hierarchical: boolean) {
  // Under a hierarchical process the manager chooses who does a task: `agent:` may be left out.
  const assigned = assignTaskAgents(
    p.tasks
      .filter(([, t]) => !hierarchical || t.agent)
      .map(([id, t]) => ({ id, agent: t.agent, description: t.description })),
    { ...p.taskAgents, agentIds },
  );
  const seen: string[] = [];
  return p.tasks.map(([id, t]) => {
    const agent = assigned.get(id);
    if (agent !== undefined && !agentIds.includes(agent)) {
      const where = p.taskAt(id, "agent");
      throw new LoadError(
        where.file,
        where.key,
        `'${agent}' is not an agent of this crew (agents: ${agentIds.join(", ")})`,
      );
    }
    const early = (t.context ?? []).find((ref) => !seen.includes(ref));
    if (early !== undefined) {
      const where = p.taskAt(id, "context");
      throw new LoadError(where.file, where.key, `'${early}' is not a task written before '${id}'`);
    }
    seen.push(id);
    if (!t.expected_output) {
      const where = p.taskAt(id, "expected_output");
      p.warn(where.file, where.key, "empty: the agent is told nothing about what to deliver");
    }
    return { id, ...outputChecks(id, t, p), agent, name: t.name ?? id };
  });
}

/** The process's hand-out of tasks, its refusals named where the layout writes the key at fault. */
function handOut(
  p: CrewParts,
  crewAt: (key: string) => Where,
  settings: CrewSettings,
  agents: AgentDef[],
  listed: Parameters<typeof resolveProcess>[2],
) {
  try {
    const handed = resolveProcess(settings, agents, listed, (key, message) => {
      const where = crewAt(key);
      p.warn(where.file, where.key, message);
    });
    checkAsyncTasks(handed.tasks);
    return handed;
  } catch (err) {
    if (!(err instanceof ProcessError)) throw err;
    // "<task>.<field>" is a task's key; anything else is the crew's own.
    const [task, field] = err.key.split(".");
    const where = field && task ? p.taskAt(task, field) : crewAt(err.key);
    throw new LoadError(where.file, where.key, err.message);
  }
}

/**
 * The crew's inputs: declared ones first, in the order written; placeholders not declared
 * follow as strings. `unused`: declared inputs no placeholder uses.
 */
export function declaredInputs(declared: InputSpec[], placeholders: string[]) {
  const names = new Set(declared.map((s) => s.name));
  const input_specs = [
    ...declared,
    ...placeholders.filter((x) => !names.has(x)).map(undeclaredInput),
  ];
  return {
    inputs: input_specs.map((s) => s.name),
    input_specs,
    unused: declared.filter((s) => !placeholders.includes(s.name)).map((s) => s.name),
  };
}

function finishCrewParts(p: CrewParts): CrewDef {
  const crewAt = p.crewAt ?? ((key: string) => ({ file: p.source[0] ?? "", key }));
  const agents = p.agents.map(([id, a]) => finishAgent(p, id, a));
  const settings = managerSettings(p.settings ?? {}, crewAt, p.warn);
  const listed = listTasks(
    p,
    agents.map((a) => a.id),
    settings.process === "hierarchical",
  );
  const { tasks, ...process } = handOut(p, crewAt, settings, agents, listed);
  const placeholders = findPlaceholders([
    ...agents.flatMap((a) => [a.role, a.goal, a.backstory]),
    ...tasks.flatMap((t) => [
      t.description,
      t.expected_output,
      t.output_file ?? "",
      t.guardrail ?? "",
      ...(t.guardrails ?? []),
    ]),
  ]);
  const { slug, name, description, source, declared } = p;
  if (!declared)
    return { slug, name, description, agents, tasks, inputs: placeholders, source, ...process };
  const { inputs, input_specs, unused } = declaredInputs(declared, placeholders);
  for (const input of unused)
    p.warn(p.inputsFile, `inputs.${input}`, "declared, but no {placeholder} uses it");
  return { slug, name, description, agents, tasks, inputs, input_specs, source, ...process };
}

type TaskEntry = z.infer<typeof TaskSchema>;

// Structured output and output files: what can be known wrong at load is a load error.
function outputChecks(
  id: string,
  entry: TaskEntry,
  { taskAt, warn, pythonModels }: Pick<CrewParts, "taskAt" | "warn" | "pythonModels">,
): Omit<TaskEntry, "output_json"> & { output_json?: Record<string, unknown> } {
  // Annotated, so that TypeScript knows the code after a call is not reached.
  const fail: (field: string, message: string) => never = (field, message) => {
    const where = taskAt(id, field);
    throw new LoadError(where.file, where.key, message);
  };
  // A class's name, as CrewAI's @CrewBase resolves it: its JSON Schema when the project's Python
  // defines it; otherwise the output goes unchecked, and the load says so.
  const schemaOf = (field: "output_json" | "output_pydantic") => {
    const value = entry[field];
    if (typeof value !== "string") return value;
    const found = pythonModels?.models.get(value.trim());
    if (found) return found;
    const where = taskAt(id, field);
    warn(
      where.file,
      where.key,
      `names the Python class '${value}', which Crewdeck did not find in ${pythonModels ? `${pythonModels.shown} or the project files it imports` : "a crew.py beside this crew"}: the output is not checked (give its JSON Schema here instead)`,
    );
    return undefined;
  };
  const t = {
    ...entry,
    output_json: schemaOf("output_json"),
    output_pydantic: schemaOf("output_pydantic"),
  };
  if (t.output_json && t.output_pydantic)
    fail("output_json", "give output_json or output_pydantic, not both");
  const output_json = t.output_json ?? t.output_pydantic;
  const key = t.output_json ? "output_json" : "output_pydantic";
  const problem = output_json ? schemaError(output_json) : undefined;
  if (problem) fail(key, problem);
  const nameProblem = t.output_file ? templateProblem(t.output_file) : undefined;
  if (nameProblem) fail("output_file", nameProblem);
  const responseSchema = t.review?.response_schema;
  const responseProblem = responseSchema ? schemaError(responseSchema) : undefined;
  if (responseProblem) fail("review.response_schema", responseProblem);
  // Patterns the linear-time engine cannot run go unchecked, said at load (never a refused crew).
  const patternWarnings = (field: string, schema: Record<string, unknown> | undefined) => {
    for (const message of schema ? skippedPatternWarnings(schema) : []) {
      const where = taskAt(id, field);
      warn(where.file, where.key, message);
    }
  };
  patternWarnings(key, output_json);
  patternWarnings("review.response_schema", responseSchema);
  const { output_pydantic: _, output_json: _json, ...rest } = t;
  // A review block means the task is reviewed: writing human_input too is not required.
  const reviewed = t.review ? { ...rest, human_input: true } : rest;
  return output_json ? { ...reviewed, output_json } : reviewed;
}

/** The crew's own keys, with `manager_llm` read as an agent's `llm` is. */
function managerSettings(
  settings: CrewFileSettings,
  crewAt: (key: string) => Where,
  warn: Warn,
): CrewSettings {
  const { warnings, error, llm, llm_params } = readAgentLlm(settings.manager_llm);
  for (const w of warnings) {
    const where = crewAt(`manager_llm${w.key ? `.${w.key}` : ""}`);
    warn(where.file, where.key, w.message);
  }
  if (error) throw new LoadError(crewAt("manager_llm").file, crewAt("manager_llm").key, error);
  return { ...settings, manager_llm: llm, manager_llm_params: llm_params };
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
