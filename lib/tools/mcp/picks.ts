import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { type McpServerDef, parseMcpRef } from "@/lib/crew/mcp-config";

/** A server an agent's `mcps:` names, with every tool (`only` undefined) or the named ones. */
export type ServerPick = { def: McpServerDef; only: Set<string> | undefined };

/** What the agent runs without, as each warning ends. */
const withoutPhrase = (agentId: string) => `agent ${agentId} runs without`;

/**
 * The servers an agent's `mcps:` entries pick among those declared, in the order first named,
 * and a warning for each entry that is malformed or names no declared server.
 */
export function pickServers(
  wanted: string[],
  servers: McpServerDef[],
  agentId: string,
): { picks: Map<string, ServerPick>; warnings: string[] } {
  const without = withoutPhrase(agentId);
  const picks = new Map<string, ServerPick>();
  const warnings: string[] = [];
  for (const entry of wanted) {
    const ref = parseMcpRef(entry);
    if (!ref) {
      warnings.push(`mcps: '${entry}' is not 'server' or 'server/tool': ${without} it.`);
      continue;
    }
    const def = servers.find((s) => s.name === ref.server);
    if (!def) {
      warnings.push(
        `MCP server '${ref.server}' (agent ${agentId}'s mcps) is not declared (${servers.length ? `servers are ${servers.map((s) => s.name).join(", ")}` : "no MCP servers are declared in the crew's mcp_servers or in Settings → Tools"}): ${without} its tools.`,
      );
      continue;
    }
    const current = picks.get(ref.server);
    if (!ref.tool) picks.set(ref.server, { def, only: undefined });
    else if (!current || current.only)
      picks.set(ref.server, { def, only: new Set([...(current?.only ?? []), ref.tool]) });
  }
  return { picks, warnings };
}

/** The tools of a server an agent may use: all, or those named that the server has. */
export const pickedTools = (tools: McpTool[], only: Set<string> | undefined) =>
  only ? tools.filter((t) => only.has(t.name)) : tools;

/** A warning for each tool named in `mcps:` that the server does not have. */
export function missingToolWarnings(
  server: string,
  only: Set<string> | undefined,
  tools: McpTool[],
  agentId: string,
): string[] {
  const names = tools.map((t) => t.name);
  return [...(only ?? [])]
    .filter((tool) => !names.includes(tool))
    .map(
      (tool) =>
        `MCP server '${server}' has no tool '${tool}': its tools are ${names.join(", ") || "(none)"}; ${withoutPhrase(agentId)} it.`,
    );
}

/** Why a server could not be used, as the agent's warning says it. */
export function unusableWarning(server: string, why: string, agentId: string): string {
  const reason = why.replace(/\.$/, "");
  return `${reason.includes(`MCP server '${server}'`) ? reason : `MCP server '${server}' could not be used: ${reason}`}; ${withoutPhrase(agentId)} its tools.`;
}

// A model's tool names are ^[A-Za-z0-9_-]{1,64}$ (OpenAI's and Anthropic's rule).
export function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
  taken.add(name);
  return name;
}
