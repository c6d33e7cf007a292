import path from "node:path";
import { finishCrew, inputBlock, titleFromSlug } from "./finish-crew";
import { crewMcpServers } from "./mcp-servers";
import { isObject, parseOrThrow, type Warn, warnUnknownKeys } from "./read-files";
import { AgentSchema, type CrewDef, CrewFileSchema, TaskSchema } from "./schema";

/**
 * A crew written in Crewdeck's one-file layout (crew.yaml), or inline where a flow calls one:
 * `at` is where the document sits in `file` ("" for a whole file, "methods.x.do.with." inline),
 * so every error and warning names the key as written.
 */
export function crewFromDoc({
  slug,
  doc,
  file,
  at = "",
  name,
  warn,
}: {
  slug: string;
  doc: unknown;
  file: string;
  at?: string;
  name?: string;
  warn: Warn;
}): CrewDef {
  warnUnknownKeys(doc, Object.keys(CrewFileSchema.shape), file, at.replace(/\.$/, ""), warn);
  for (const section of ["agents", "tasks"] as const) {
    const shape = section === "agents" ? AgentSchema.shape : TaskSchema.shape;
    const items = isObject(doc) ? doc[section] : undefined;
    if (isObject(items)) {
      for (const [id, item] of Object.entries(items)) {
        warnUnknownKeys(item, Object.keys(shape), file, `${at}${section}.${id}`, warn);
      }
    }
  }
  const parsed = parseOrThrow(CrewFileSchema, doc, file, at.replace(/\.$/, ""));
  return finishCrew({
    slug,
    name: parsed.name ?? name ?? titleFromSlug(slug),
    description: parsed.description ?? null,
    agents: Object.entries(parsed.agents),
    tasks: Object.entries(parsed.tasks),
    source: [file],
    agentAt: (id, field) => ({ file, key: `${at}agents.${id}.${field}` }),
    taskAt: (id, field) => ({ file, key: `${at}tasks.${id}.${field}` }),
    inputsFile: file,
    declared: inputBlock(parsed.inputs, file),
    taskAgents: {
      at: (id) => ({
        file,
        key: `${at}tasks.${id}.agent`,
        hint: `\`agent: <agents>\` under ${at}tasks.${id} in ${path.basename(file)}`,
      }),
    },
    settings: parsed,
    crewAt: (key) => ({ file, key: `${at}${key}` }),
    retentionDays: parsed.retention_days,
    mcpServers: crewMcpServers(parsed.mcp_servers, file, `${at}mcp_servers`, warn),
    warn,
  });
}
