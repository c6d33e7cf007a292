import fs from "node:fs";
import path from "node:path";
import {
  McpConfigError,
  type McpServerDef,
  parseMcpRef,
  parseMcpServers,
  referencesOf,
} from "@/lib/tools/mcp/config";
import { LoadError, type Warn } from "./read-files";

// A crew's MCP servers (`mcp_servers:` in crew.yaml / crew.jsonc, config/mcp_servers.yaml in the
// YAML layout) and its agents' `mcps:`, checked at load without starting anything: a server is
// only started when a task needs it (a failure then fails the task, naming the server).

type Where = { file: string; key: string };

/** The servers as written; `prefix` is where the map sits in `file` ("mcp_servers" or ""). */
export function crewMcpServers(
  value: unknown,
  file: string,
  prefix: string,
  warn: Warn,
): McpServerDef[] {
  let servers: McpServerDef[];
  try {
    servers = parseMcpServers(value);
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    throw new LoadError(file, [prefix, err.key].filter(Boolean).join("."), err.message);
  }
  const at = (name: string) => [prefix, name].filter(Boolean).join(".");
  for (const s of servers) {
    for (const ref of referencesOf(s)) {
      if (ref.kind === "env" && !process.env[ref.name])
        warn(file, at(s.name), `\${env:${ref.name}} is not set here: the server cannot start`);
    }
    if ("command" in s && !s.command.includes("${") && !onPath(s.command, s.cwd))
      warn(
        file,
        `${at(s.name)}.command`,
        `'${s.command}' is not found on PATH here: tasks using this server will fail until it is installed`,
      );
  }
  return servers;
}

/** Each agent's `mcps` entries: well formed; servers not in the crew are the deployment's. */
export function checkAgentMcps(
  agents: Array<{ id: string; mcps?: string[] }>,
  servers: McpServerDef[],
  agentAt: (id: string, field: string) => Where,
  warn: Warn,
) {
  for (const agent of agents) {
    (agent.mcps ?? []).forEach((entry, i) => {
      const where = agentAt(agent.id, `mcps.${i}`);
      const ref = parseMcpRef(entry);
      if (!ref)
        throw new LoadError(
          where.file,
          where.key,
          `'${entry}' is not 'server' or 'server/tool'; declare the server (a command, or a URL with its headers) under mcp_servers and list it here by name`,
        );
      if (!servers.some((s) => s.name === ref.server))
        warn(
          where.file,
          where.key,
          `MCP server '${ref.server}' is not declared in this crew (${servers.length ? servers.map((s) => s.name).join(", ") : "it declares none"}): it must be one saved in Settings → Tools, or the task fails`,
        );
    });
  }
}

// Relative commands and cwd are taken from Crewdeck's working directory, as when it is started.
function onPath(command: string, cwd: string | undefined): boolean {
  if (command.includes("/") || command.includes("\\"))
    return fs.existsSync(path.resolve(cwd ?? ".", command));
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  return dirs.some((d) => fs.existsSync(path.join(d, command)));
}
