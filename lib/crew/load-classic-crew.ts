import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { catalogEntry } from "@/lib/crew/tool-catalog";
import { entriesOf } from "@/lib/util/field";
import type { ClassicProject } from "./find-classic-projects";
import { finishCrew, inputBlock, titleFromSlug } from "./finish-crew";
import { crewMcpServers } from "./mcp-servers";
import { projectModels } from "./python-models";
import { type CrewPy, readCrewPy } from "./read-crew-py";
import { parseOrThrow, readYaml, type Warn, warnUnknownKeys } from "./read-files";
import type { JsonSchema } from "./read-pydantic";
import { AgentSchema, type CrewDef, CrewFileSchema, TaskSchema } from "./schema";

// CrewAI's YAML layout (config/agents.yaml and config/tasks.yaml, with crew.py beside them),
// mapped onto CrewDef as the other layouts are; what crew.py says fills in what the YAML leaves
// out.

/**
 * A task's `output_pydantic=Model` in crew.py, as the JSON Schema read from the model's class in
 * the same module or one it imports from the project (tasks.yaml's own output_json wins); a class
 * not found is warned about.
 */
function pythonOutputSchema(
  id: string,
  task: { output_json?: unknown; output_pydantic?: unknown },
  crewPy: ProjectPy | undefined,
  warn: Warn,
): { output_json?: Record<string, unknown> } {
  const model = crewPy?.read.taskModels.get(id);
  if (!crewPy || !model || task.output_json || task.output_pydantic) return {};
  const schema = crewPy.models.get(model);
  if (schema) return { output_json: schema };
  warn(
    crewPy.file,
    `${id}.output_pydantic`,
    `${crewPy.shown} asks for ${model}, which is not defined there or in the project files it imports: the output is not checked (give its JSON Schema as output_json under ${id})`,
  );
  return {};
}

type ProjectPy = { file: string; shown: string; read: CrewPy; models: Map<string, JsonSchema> };

/** agents.yaml and tasks.yaml, parsed; keys Crewdeck does not know are warned about. */
function readClassicYaml(agentsFile: string, tasksFile: string, warn: Warn) {
  const agentsDoc = readYaml(agentsFile);
  const tasksDoc = readYaml(tasksFile);
  const agents = parseOrThrow(CrewFileSchema.shape.agents, agentsDoc, agentsFile, "");
  const tasks = parseOrThrow(CrewFileSchema.shape.tasks, tasksDoc, tasksFile, "");
  for (const [id, item] of entriesOf(agentsDoc)) {
    warnUnknownKeys(item, Object.keys(AgentSchema.shape), agentsFile, id, warn);
  }
  for (const [id, item] of entriesOf(tasksDoc)) {
    warnUnknownKeys(item, Object.keys(TaskSchema.shape), tasksFile, id, warn);
  }
  return { agents, tasks };
}

/**
 * The optional files beside them: config/inputs.yaml (typed inputs, a map like the `inputs:`
 * block) and config/mcp_servers.yaml (a map like `mcp_servers:`).
 */
function readConfigExtras(config: string, warn: Warn) {
  const inputsFile = path.join(config, "inputs.yaml");
  const declared = fs.existsSync(inputsFile)
    ? inputBlock(readYaml(inputsFile) ?? {}, inputsFile)
    : undefined;
  const mcpFile = path.join(config, "mcp_servers.yaml");
  const mcpServers = fs.existsSync(mcpFile)
    ? crewMcpServers(readYaml(mcpFile) ?? {}, mcpFile, "", warn)
    : undefined;
  return { inputsFile, declared, mcpFile, mcpServers };
}

/** crew.py as read, with its models and those it imports from the project; absent: undefined. */
function readProjectPy(project: ClassicProject, folder: string): ProjectPy | undefined {
  if (!fs.existsSync(project.crewPy)) return undefined;
  const code = fs.readFileSync(project.crewPy, "utf8");
  return {
    file: project.crewPy,
    shown: path.relative(folder, project.crewPy),
    read: readCrewPy(code, project.className),
    // output_pydantic=/output_json name these.
    models: projectModels(project.crewPy, code, folder),
  };
}

/**
 * Tools made in Python: those that are CrewAI's own classes Crewdeck has built in
 * (SerperDevTool(), FileReadTool()…) join the agent's list after its own, each tool once by its
 * catalog name; any other is not Crewdeck's to run (`others`), to be named rather than dropped.
 */
export function pythonTools(listed: string[], made: string[]) {
  const builtIn = made.filter((t) => catalogEntry(t));
  const join: string[] = [];
  const have = new Set(listed.map((t) => catalogEntry(t)?.name ?? t));
  for (const t of builtIn) {
    const name = catalogEntry(t)?.name ?? t;
    if (!have.has(name)) join.push(t);
    have.add(name);
  }
  return { join, others: made.filter((t) => !catalogEntry(t)) };
}

/** crew.py's `mcps=[…]` (CrewAI's MCP DSL) joins agents.yaml's, each server once. */
export const joinedMcps = (listed: string[], refs: string[]) => [
  ...listed,
  ...refs.filter((r) => !listed.includes(r)),
];

/** What crew.py gives agents beyond the YAML: built-in tools, MCP servers; the rest warned of. */
function applyPythonAgents(crewPy: ProjectPy, agents: Parsed<"agents">, warn: Warn) {
  for (const [agent, tools] of crewPy.read.agentTools) {
    const def = agents[agent];
    const { join, others } = pythonTools(def?.tools ?? [], tools);
    if (def) def.tools.push(...join);
    if (others.length)
      warn(
        crewPy.file,
        `${agent}.tools`,
        `crew.py gives this agent ${others.join(", ")}, which Crewdeck does not run; it works without them (list Crewdeck's tools under tools: in agents.yaml)`,
      );
  }
  // Entries that are Python objects (MCPServerStdio(…)) are not read: declare those servers in
  // config/mcp_servers.yaml.
  for (const [agent, { refs, other }] of crewPy.read.agentMcps) {
    const def = agents[agent];
    if (def) def.mcps = joinedMcps(def.mcps, refs);
    if (other)
      warn(
        crewPy.file,
        `${agent}.mcps`,
        `crew.py gives this agent ${other} MCP server${other === 1 ? "" : "s"} as Python objects, which Crewdeck does not read: declare ${other === 1 ? "it" : "them"} in config/mcp_servers.yaml and list ${other === 1 ? "it" : "them"} under mcps: by name`,
      );
  }
}

/** crew.py's literal Task(...) flags win over tasks.yaml, as keyword arguments do in CrewAI. */
function withPythonFlags(tasks: Parsed<"tasks">, crewPy: ProjectPy | undefined, warn: Warn) {
  return Object.entries(tasks).map(([id, t]): [string, typeof t] => {
    const merged = { ...t, ...crewPy?.read.taskFlags.get(id) };
    return [id, { ...merged, ...pythonOutputSchema(id, merged, crewPy, warn) }];
  });
}

export function loadClassic(
  slug: string,
  folder: string,
  project: ClassicProject,
  warn: Warn,
): CrewDef {
  const { agentsFile, tasksFile } = project;
  const shown = (file: string) => path.relative(folder, file);
  // Name comes from the folder; two YAML maps.
  const { agents, tasks } = readClassicYaml(agentsFile, tasksFile, warn);
  const { inputsFile, declared, mcpFile, mcpServers } = readConfigExtras(
    path.dirname(agentsFile),
    warn,
  );
  const crewPy = readProjectPy(project, folder);
  if (crewPy) applyPythonAgents(crewPy, agents, warn);
  applyKeywordArguments(crewPy, agents, tasks, warn);
  return finishCrew({
    slug,
    name: titleFromSlug(slug),
    description: null,
    agents: Object.entries(agents),
    tasks: withPythonFlags(tasks, crewPy, warn),
    source: [
      agentsFile,
      tasksFile,
      ...(declared ? [inputsFile] : []),
      ...(mcpServers ? [mcpFile] : []),
      ...(crewPy ? [crewPy.file] : []),
    ],
    agentAt: (id, field) => ({ file: agentsFile, key: `${id}.${field}` }),
    taskAt: (id, field) => ({ file: tasksFile, key: `${id}.${field}` }),
    inputsFile,
    declared,
    taskAgents: {
      crewPy,
      at: (id) => ({
        file: tasksFile,
        key: `${id}.agent`,
        hint: `\`agent: <agents>\` under ${id} in ${shown(tasksFile)}`,
      }),
    },
    settings: crewPy?.read.crew,
    ...(crewPy ? { pythonModels: { models: crewPy.models, shown: crewPy.shown } } : {}),
    crewAt: (key) => ({ file: crewPy?.file ?? tasksFile, key: crewPy ? `Crew(${key}=…)` : key }),
    mcpServers,
    warn,
  });
}

type Parsed<K extends "agents" | "tasks"> = z.infer<(typeof CrewFileSchema.shape)[K]>;

/**
 * crew.py's keyword arguments win over the YAML, as in CrewAI (process_config: a keyword argument
 * beside `config=` overrides the config's value): an Agent's llm, allow_delegation, max_iter and
 * max_rpm; a Task's output_file and string guardrails. A Task's own tools go to its agent (built-in
 * ones; CrewAI gives them to that task alone). What Crewdeck does not run is warned of, by line.
 */
function applyKeywordArguments(
  crewPy: { file: string; shown: string; read: CrewPy } | undefined,
  agents: Parsed<"agents">,
  tasks: Parsed<"tasks">,
  warn: Warn,
) {
  if (!crewPy) return;
  for (const [key, settings] of crewPy.read.agentSettings) {
    const def = agents[key];
    if (def) Object.assign(def, settings);
  }
  for (const [key, settings] of crewPy.read.taskSettings) {
    const def = tasks[key];
    if (def) Object.assign(def, settings);
  }
  for (const [key, tools] of crewPy.read.taskTools) {
    const ref = crewPy.read.tasks.get(key);
    const agentKey =
      tasks[key]?.agent ?? (ref?.kind === "agent" ? crewPy.read.agents.get(ref.method) : undefined);
    const agent = agentKey ? agents[agentKey] : undefined;
    const builtIn = tools.filter((t) => catalogEntry(t));
    if (agent) for (const t of builtIn) if (!agent.tools.includes(t)) agent.tools.push(t);
    warn(
      crewPy.file,
      `${key}.tools`,
      `Task(tools=[${tools.join(", ")}]): Crewdeck gives tools to agents, not tasks: ${agent && builtIn.length ? `${builtIn.join(", ")} ${builtIn.length === 1 ? "goes" : "go"} to agent ${agentKey} for all its tasks` : "list them under the task's agent in agents.yaml"}${tools.length > builtIn.length ? `; ${tools.filter((t) => !catalogEntry(t)).join(", ")} ${tools.length - builtIn.length === 1 ? "is" : "are"} Python, which Crewdeck does not run (use a built-in tool or an MCP server)` : ""}`,
    );
  }
  for (const n of crewPy.read.notes) warn(crewPy.file, n.key, n.message, n.line);
}
