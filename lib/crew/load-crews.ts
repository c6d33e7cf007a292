import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "@/lib/errors";
import { finishCrew, inputBlock, titleFromSlug } from "./finish-crew";
import { findClassicProject, loadClassic } from "./load-classic-crew";
import { findFlow, readFlow } from "./load-flow";
import { findJsoncCrew, loadJsoncCrew } from "./load-jsonc-crew";
import { crewMcpServers } from "./mcp-servers";
import {
  isObject,
  LoadError,
  parseOrThrow,
  readYaml,
  type Warn,
  warnUnknownKeys,
} from "./read-files";
import {
  AgentSchema,
  type CrewDef,
  CrewFileSchema,
  type CrewLoadError,
  type CrewWarning,
  TaskSchema,
} from "./schema";

export type CrewCatalog = {
  crews: Map<string, CrewDef>;
  errors: CrewLoadError[];
  warnings: CrewWarning[];
};

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Reads every crew folder; a broken crew is reported and skipped, never fatal to the others. */
export function loadCrews(dir: string): CrewCatalog {
  const catalog: CrewCatalog = { crews: new Map(), errors: [], warnings: [] };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    catalog.errors.push({
      slug: "*",
      file: dir,
      key: "",
      reason: `cannot read CREWS_DIR: ${errorMessage(err)}`,
    });
    return catalog;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const slug = entry.name;
    const folder = path.join(dir, slug);
    // Files are named relative to CREWS_DIR: messages reach API clients and the dashboard.
    const rel = (file: string) => path.relative(dir, file) || ".";
    const warn = (file: string, key: string, message: string) =>
      catalog.warnings.push({ slug, file: rel(file), key, message });
    try {
      if (!SLUG.test(slug)) {
        throw new LoadError(
          folder,
          "",
          "folder names are letters, digits, '_' or '-' (they become the URL)",
        );
      }
      catalog.crews.set(slug, loadCrewFolder(slug, folder, warn));
    } catch (err) {
      if (err instanceof LoadError)
        catalog.errors.push({ slug, file: rel(err.file), key: err.key, reason: err.message });
      else catalog.errors.push({ slug, file: rel(folder), key: "", reason: errorMessage(err) });
    }
  }
  return catalog;
}

function loadCrewFolder(slug: string, folder: string, warn: Warn): CrewDef {
  const flowFile = findFlow(folder);
  if (flowFile) {
    // Checked as CrewAI checks it, so its author learns of every mistake now; not yet run.
    const flow = readFlow(flowFile, warn);
    const methods = Object.keys(flow.methods).length;
    throw new LoadError(
      flowFile,
      "",
      `a CrewAI Flow ('${flow.name}', ${methods} method${methods === 1 ? "" : "s"}, crewai.flow/v1) that reads as valid, but Crewdeck does not run Flows yet: serve its crews from folders of their own meanwhile`,
    );
  }
  const single = path.join(folder, "crew.yaml");
  if (fs.existsSync(single)) return loadCrewYaml(slug, single, warn);
  const jsonc = findJsoncCrew(folder);
  if (jsonc) return loadJsoncCrew({ slug, folder, crewFile: jsonc, warn });
  const project = findClassicProject(folder);
  if (project) return loadClassic(slug, folder, project, warn);
  throw new LoadError(
    folder,
    "",
    "no crew.yaml, and not both config/agents.yaml and config/tasks.yaml (also looked for crew.jsonc, flow.yaml and src/<package>/config/)",
  );
}

function loadCrewYaml(slug: string, single: string, warn: Warn): CrewDef {
  const doc = readYaml(single);
  warnUnknownKeys(doc, Object.keys(CrewFileSchema.shape), single, "", warn);
  for (const section of ["agents", "tasks"] as const) {
    const shape = section === "agents" ? AgentSchema.shape : TaskSchema.shape;
    const items = isObject(doc) ? doc[section] : undefined;
    if (isObject(items)) {
      for (const [id, item] of Object.entries(items)) {
        warnUnknownKeys(item, Object.keys(shape), single, `${section}.${id}`, warn);
      }
    }
  }
  const parsed = parseOrThrow(CrewFileSchema, doc, single, "");
  return finishCrew({
    slug,
    name: parsed.name ?? titleFromSlug(slug),
    description: parsed.description ?? null,
    agents: Object.entries(parsed.agents),
    tasks: Object.entries(parsed.tasks),
    source: [single],
    agentAt: (id, field) => ({ file: single, key: `agents.${id}.${field}` }),
    taskAt: (id, field) => ({ file: single, key: `tasks.${id}.${field}` }),
    inputsFile: single,
    declared: inputBlock(parsed.inputs, single),
    taskAgents: {
      at: (id) => ({
        file: single,
        key: `tasks.${id}.agent`,
        hint: `\`agent: <agents>\` under tasks.${id} in crew.yaml`,
      }),
    },
    settings: parsed,
    crewAt: (key) => ({ file: single, key }),
    retentionDays: parsed.retention_days,
    mcpServers: crewMcpServers(parsed.mcp_servers, single, "mcp_servers", warn),
    warn,
  });
}
