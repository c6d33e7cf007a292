import fs from "node:fs";
import path from "node:path";
import {
  checkNoClearSecrets,
  McpConfigError,
  type McpServerDef,
  parseMcpRef,
  parseMcpServers,
  parseMcpUrl,
  referencesOf,
  SERVER_NAME,
} from "./mcp-config";
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

/**
 * CrewAI's URL entries (`mcps: ["https://mcp.example.com/mcp#search"]`) made into Streamable
 * HTTP servers of the crew, named after their host, and the entries into `server` / `server/tool`.
 * A credential in the URL's query must be a reference, as anywhere (`?api_key=${env:EXA_KEY}`).
 */
export function inlineUrlServers<A extends { id: string; mcps?: string[] }>(
  agents: A[],
  declared: McpServerDef[],
  agentAt: (id: string, field: string) => Where,
): { agents: A[]; servers: McpServerDef[] } {
  const servers = [...declared];
  const named = (url: string): string => {
    const same = servers.find((s) => "url" in s && s.url === url);
    if (same) return same.name;
    const host = (() => {
      try {
        return new URL(url.replace(/\$\{[^}]*\}/g, "x")).hostname;
      } catch {
        return "mcp";
      }
    })();
    const base =
      host
        .replace(/[^A-Za-z0-9]+/g, "_")
        .replace(/^_|_$/g, "")
        .slice(0, 36) || "mcp";
    let name = base;
    for (let i = 2; servers.some((s) => s.name === name); i++) name = `${base}_${i}`;
    return name;
  };
  const rewritten = agents.map((agent) => {
    if (!agent.mcps?.some((m) => parseMcpUrl(m))) return agent;
    const mcps = agent.mcps.map((entry, i) => {
      const ref = parseMcpUrl(entry);
      if (!ref) return entry;
      const name = named(ref.url);
      if (!servers.some((s) => s.name === name)) {
        const server: McpServerDef = { name, url: ref.url, headers: {} };
        try {
          if (!URL.canParse(ref.url.replace(/\$\{[^}]*\}/g, "x")))
            throw new McpConfigError("", "not a URL");
          checkNoClearSecrets(server);
        } catch (err) {
          if (!(err instanceof McpConfigError)) throw err;
          const where = agentAt(agent.id, `mcps.${i}`);
          throw new LoadError(where.file, where.key, `'${entry}': ${err.message}`);
        }
        if (SERVER_NAME.test(name)) servers.push(server);
      }
      return ref.tool ? `${name}/${ref.tool}` : name;
    });
    return { ...agent, mcps };
  });
  return { agents: rewritten, servers };
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
          `'${entry}' is not 'server', 'server/tool' (or CrewAI's 'server#tool') or an https:// URL; declare the server (a command, or a URL with its headers) under mcp_servers and list it here by name`,
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
// The paths are the crew's, read at run time: the build must not trace them (turbopackIgnore),
// or it traces the whole project into the server's output.
function onPath(command: string, cwd: string | undefined): boolean {
  if (command.includes("/") || command.includes("\\"))
    return fs.existsSync(/* turbopackIgnore: true */ path.resolve(cwd ?? ".", command));
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  return dirs.some((d) => fs.existsSync(/* turbopackIgnore: true */ path.join(d, command)));
}
