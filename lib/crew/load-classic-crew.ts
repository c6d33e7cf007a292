import fs from "node:fs";
import path from "node:path";
import { catalogEntry } from "@/lib/crew/tool-catalog";
import { entriesOf, fieldOf } from "@/lib/util/field";
import { finishCrew, inputBlock, titleFromSlug } from "./finish-crew";
import { crewMcpServers } from "./mcp-servers";
import { projectModels } from "./python-models";
import { type CrewPy, readCrewPy } from "./read-crew-py";
import { LoadError, parseOrThrow, readYaml, type Warn, warnUnknownKeys } from "./read-files";
import type { JsonSchema } from "./read-pydantic";
import { AgentSchema, type CrewDef, CrewFileSchema, TaskSchema } from "./schema";

// CrewAI's YAML layout (config/agents.yaml and config/tasks.yaml, with crew.py beside them),
// mapped onto CrewDef as the other layouts are; what crew.py says fills in what the YAML leaves
// out.

type ClassicProject = { config: string; crewPy: string };

/**
 * CrewAI's YAML layout: `config/agents.yaml` + `config/tasks.yaml` (crew.py beside config/), or
 * the project `crewai create crew --classic` makes, with both under `src/<package>/`.
 */
export function findClassicProject(folder: string): ClassicProject | undefined {
  const at = (dir: string) =>
    fs.existsSync(path.join(dir, "config", "agents.yaml")) &&
    fs.existsSync(path.join(dir, "config", "tasks.yaml"))
      ? { config: path.join(dir, "config"), crewPy: crewModule(dir) }
      : undefined;
  const top = at(folder);
  if (top) return top;
  const src = path.join(folder, "src");
  let packages: string[] = [];
  try {
    packages = fs
      .readdirSync(src, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !e.name.startsWith("__"))
      .map((e) => e.name)
      .sort();
  } catch {
    return undefined; // no src/: not this layout
  }
  const found = packages.flatMap((name) => at(path.join(src, name)) ?? []);
  if (found.length > 1)
    throw new LoadError(
      src,
      "",
      `more than one package has config/agents.yaml and config/tasks.yaml (${found.map((f) => path.basename(path.dirname(f.config))).join(", ")}): keep one crew per folder`,
    );
  return found[0];
}

/**
 * A task's `output_pydantic=Model` in crew.py, as the JSON Schema read from the model's class in
 * the same module or one it imports from the project (tasks.yaml's own output_json wins); a class
 * not found is warned about.
 */
function pythonOutputSchema(
  id: string,
  task: { output_json?: unknown; output_pydantic?: unknown },
  crewPy:
    | { file: string; shown: string; read: CrewPy; models: Map<string, JsonSchema> }
    | undefined,
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

/**
 * The Python file that sets up the crew: crew.py, or else the one file beside config/ that reads
 * its YAML (flows name theirs `<name>_crew.py`; scripts name theirs as they like).
 */
function crewModule(dir: string): string {
  const crewPy = path.join(dir, "crew.py");
  if (fs.existsSync(crewPy)) return crewPy;
  const candidates = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".py") && !f.startsWith("__"))
    .map((f) => path.join(dir, f))
    .filter((f) => /@CrewBase|\b(agents|tasks)_config\b/.test(fs.readFileSync(f, "utf8")));
  const [only, ...others] = candidates;
  return only !== undefined && !others.length ? only : crewPy;
}

export function loadClassic(
  slug: string,
  folder: string,
  project: ClassicProject,
  warn: Warn,
): CrewDef {
  const agentsFile = path.join(project.config, "agents.yaml");
  const tasksFile = path.join(project.config, "tasks.yaml");
  const shown = (file: string) => path.relative(folder, file);
  // Name comes from the folder; two YAML maps.
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
  // Typed inputs in this layout: an optional config/inputs.yaml, a map like the `inputs:` block.
  const inputsFile = path.join(project.config, "inputs.yaml");
  const declared = fs.existsSync(inputsFile)
    ? inputBlock(readYaml(inputsFile) ?? {}, inputsFile)
    : undefined;
  // MCP servers in this layout: an optional config/mcp_servers.yaml, a map like `mcp_servers:`.
  const mcpFile = path.join(project.config, "mcp_servers.yaml");
  const mcpServers = fs.existsSync(mcpFile)
    ? crewMcpServers(readYaml(mcpFile) ?? {}, mcpFile, "", warn)
    : undefined;
  const code = fs.existsSync(project.crewPy) ? fs.readFileSync(project.crewPy, "utf8") : undefined;
  const crewPy =
    code !== undefined
      ? {
          file: project.crewPy,
          shown: shown(project.crewPy),
          read: readCrewPy(code),
          // Its models and those it imports from the project: output_pydantic=/output_json names.
          models: projectModels(project.crewPy, code, folder),
        }
      : undefined;
  // Tools made in Python: those that are CrewAI's own classes Crewdeck has built in
  // (SerperDevTool(), FileReadTool()…) join the agent's tools (agents.yaml's list first); any other
  // is not Crewdeck's to run, and is named rather than dropped silently.
  for (const [agent, tools] of crewPy?.read.agentTools ?? []) {
    const def = agents[agent];
    const builtIn = tools.filter((t) => catalogEntry(t));
    if (def && builtIn.length) {
      const have = new Set(def.tools.map((t) => catalogEntry(t)?.name ?? t));
      for (const t of builtIn) {
        const name = catalogEntry(t)?.name ?? t;
        if (!have.has(name)) def.tools.push(t);
        have.add(name);
      }
    }
    const others = tools.filter((t) => !catalogEntry(t));
    if (crewPy && others.length)
      warn(
        crewPy.file,
        `${agent}.tools`,
        `crew.py gives this agent ${others.join(", ")}, which Crewdeck does not run; it works without them (list Crewdeck's tools under tools: in agents.yaml)`,
      );
  }
  // crew.py's `mcps=[…]` (CrewAI's MCP DSL) joins agents.yaml's; entries that are Python objects
  // (MCPServerStdio(…)) are not read: declare those servers in config/mcp_servers.yaml.
  for (const [agent, { refs, other }] of crewPy?.read.agentMcps ?? []) {
    const def = agents[agent];
    if (def) def.mcps = [...def.mcps, ...refs.filter((r) => !def.mcps.includes(r))];
    if (crewPy && other)
      warn(
        crewPy.file,
        `${agent}.mcps`,
        `crew.py gives this agent ${other} MCP server${other === 1 ? "" : "s"} as Python objects, which Crewdeck does not read: declare ${other === 1 ? "it" : "them"} in config/mcp_servers.yaml and list ${other === 1 ? "it" : "them"} under mcps: by name`,
      );
  }
  // crew.py's literal Task(...) flags fill in what tasks.yaml leaves out; tasks.yaml wins.
  const withFlags = Object.entries(tasks).map(([id, t]): [string, typeof t] => {
    const flags = Object.entries(crewPy?.read.taskFlags.get(id) ?? {});
    const merged = {
      ...t,
      ...Object.fromEntries(flags.filter(([k]) => fieldOf(fieldOf(tasksDoc, id), k) === undefined)),
    };
    return [id, { ...merged, ...pythonOutputSchema(id, merged, crewPy, warn) }];
  });
  return finishCrew({
    slug,
    name: titleFromSlug(slug),
    description: null,
    agents: Object.entries(agents),
    tasks: withFlags,
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
