import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { finishCrew, inputBlock, titleFromSlug } from "./finish-crew";
import { crewMcpServers } from "./mcp-servers";
import {
  isObject,
  LoadError,
  parseOrThrow,
  readJsonc,
  type Warn,
  warnUnknownKeys,
} from "./read-files";
import { AgentSchema, type CrewDef, CrewFileSchema, TaskSchema } from "./schema";

// CrewAI's JSON-first project (what `crewai create crew` makes): crew.jsonc names its agents,
// each in agents/<name>.jsonc, and lists its tasks in order. `inputs` holds default values.
// Mapped onto CrewDef exactly as the YAML layouts are.

const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const CrewJsonSchema = z.object({
  name: z.string().trim().min(1, "name must not be empty").optional(),
  description: z.string().optional(),
  agents: z
    .array(z.string().regex(ID, "agent names are letters, digits, '_' or '-'"), {
      error: "agents must be a list of names, each with a file agents/<name>.jsonc",
    })
    .min(1, "at least one agent is required"),
  tasks: z
    .array(z.record(z.string(), z.unknown()), { error: "tasks must be a list of task objects" })
    .min(1, "at least one task is required"),
  inputs: z
    .record(z.string(), z.unknown(), { error: "inputs must map input names to default values" })
    .optional(),
  // The crew's own keys, as in crew.yaml.
  process: CrewFileSchema.shape.process.optional(),
  manager_llm: CrewFileSchema.shape.manager_llm,
  manager_agent: CrewFileSchema.shape.manager_agent,
  max_rpm: CrewFileSchema.shape.max_rpm,
  // MCP servers, as `mcp_servers:` in crew.yaml (lib/crew/mcp-servers.ts reads them).
  mcp_servers: CrewFileSchema.shape.mcp_servers,
  retention_days: CrewFileSchema.shape.retention_days,
});

// Keys of CrewAI's crew.jsonc Crewdeck reads; the rest (verbose, memory, …) are warned.
const CREW_KEYS = Object.keys(CrewJsonSchema.shape);

/** crew.jsonc, or crew.json as CrewAI also accepts; undefined when the folder has neither. */
export function findJsoncCrew(folder: string): string | undefined {
  // A crews folder read at run time: not for the build to trace (next build warns otherwise).
  return ["crew.jsonc", "crew.json"]
    .map((name) => path.join(/* turbopackIgnore: true */ folder, name))
    .find((file) => fs.existsSync(file));
}

type Args = {
  slug: string;
  folder: string;
  crewFile: string;
  warn: Warn;
};

export function loadJsoncCrew({ slug, folder, crewFile, warn }: Args): CrewDef {
  const doc = readJsonc(crewFile);
  if (!isObject(doc)) throw new LoadError(crewFile, "", "crew.jsonc must be a JSON object");
  warnUnknownKeys(doc, CREW_KEYS, crewFile, "", warn);
  const crew = parseOrThrow(CrewJsonSchema, doc, crewFile, "");
  const shown = path.basename(crewFile);

  const agentFiles = new Map<string, string>();
  const agents = crew.agents.map((name, i): [string, z.infer<typeof AgentSchema>] => {
    if (agentFiles.has(name))
      throw new LoadError(crewFile, `agents.${i}`, `agent '${name}' is listed twice`);
    const file = ["jsonc", "json"]
      .map((ext) => path.join(folder, "agents", `${name}.${ext}`))
      .find((f) => fs.existsSync(f));
    if (!file)
      throw new LoadError(
        crewFile,
        `agents.${i}`,
        `agent '${name}' has no file: add agents/${name}.jsonc (role, goal, backstory)`,
      );
    agentFiles.set(name, file);
    return [name, readAgent(file, warn)];
  });

  // A task's id is its `name` (what `context` refers to); a task without one is task_<n>.
  const ids: string[] = [];
  const tasks = crew.tasks.map((raw, i): [string, z.infer<typeof TaskSchema>] => {
    const id = typeof raw.name === "string" && raw.name.trim() ? raw.name.trim() : `task_${i + 1}`;
    if (!ID.test(id))
      throw new LoadError(
        crewFile,
        `tasks.${i}.name`,
        "task names are letters, digits, '_' or '-'",
      );
    if (ids.includes(id))
      throw new LoadError(crewFile, `tasks.${i}.name`, `task name '${id}' is used twice`);
    ids.push(id);
    warnUnknownKeys(raw, Object.keys(TaskSchema.shape), crewFile, `tasks.${i}`, warn);
    return [id, parseOrThrow(TaskSchema, raw, crewFile, `tasks.${i}`)];
  });
  const taskKey = (id: string, field: string) => `tasks.${ids.indexOf(id)}.${field}`;

  return finishCrew({
    slug,
    name: crew.name ?? titleFromSlug(slug),
    description: crew.description ?? null,
    agents,
    tasks,
    source: [crewFile, ...agentFiles.values()],
    agentAt: (id, field) => ({ file: agentFiles.get(id) ?? crewFile, key: field }),
    taskAt: (id, field) => ({ file: crewFile, key: taskKey(id, field) }),
    inputsFile: crewFile,
    declared: inputBlock(crew.inputs && defaultsAsInputs(crew.inputs), crewFile),
    taskAgents: {
      at: (id) => ({
        file: crewFile,
        key: taskKey(id, "agent"),
        hint: `"agent": "<agents>" to the task named '${id}' in ${shown}`,
      }),
    },
    settings: crew,
    crewAt: (key) => ({ file: crewFile, key }),
    retentionDays: crew.retention_days,
    mcpServers: crewMcpServers(crew.mcp_servers, crewFile, "mcp_servers", warn),
    warn,
  });
}

// An agent file; `settings` (verbose, allow_delegation, even llm) is merged over the top level,
// as CrewAI does.
function readAgent(file: string, warn: Warn): z.infer<typeof AgentSchema> {
  const doc = readJsonc(file);
  if (!isObject(doc)) throw new LoadError(file, "", "an agent file must be a JSON object");
  const settings = doc.settings ?? {};
  if (!isObject(settings)) throw new LoadError(file, "settings", "settings must be an object");
  const known = Object.keys(AgentSchema.shape);
  warnUnknownKeys(doc, [...known, "settings"], file, "", warn);
  warnUnknownKeys(settings, known, file, "settings", warn);
  const merged: Record<string, unknown> = { ...doc, ...settings };
  // CrewAI's object form {"provider": "ollama", "model": "llama3", …} is read as in YAML crews.
  return parseOrThrow(AgentSchema, merged, file, "");
}

// CrewAI's `inputs` are default values; typed from the value so the kickoff form fits them.
function defaultsAsInputs(defaults: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => {
      if (value === null || value === "") return [name, {}];
      const type =
        typeof value === "number"
          ? "number"
          : typeof value === "boolean"
            ? "boolean"
            : typeof value === "string"
              ? "string"
              : "json";
      return [name, { type, default: value }];
    }),
  );
}
