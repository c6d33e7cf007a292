import type { JSONSchema7 } from "@ai-sdk/provider";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, type Tool } from "ai";
import { env } from "@/lib/config/env";
import { type McpServerDef, mergeServers, parseMcpRef } from "@/lib/crew/mcp-config";
import type { AgentDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import type { AgentTool, ToolContext } from "@/lib/tools/types";
import { callTool, connection } from "./pool";
import { redact, redactDeep } from "./redact";
import { type Resolved, resolveServer } from "./resolve";
import { toModelResult } from "./result";
import { readDeploymentServers, readSecretValues } from "./store";

/** The servers a crew's agents may use: its own, then the deployment's (the crew's win). */
async function serversFor(db: Db, crewServers: McpServerDef[] | undefined) {
  return mergeServers(crewServers ?? [], await readDeploymentServers(db));
}

/** A server with its references filled in (throws naming what is missing). */
export async function resolveFor(db: Db, def: McpServerDef): Promise<Resolved> {
  return resolveServer(def, { env: process.env, secrets: await readSecretValues(db) });
}

/**
 * The tools of the MCP servers the agent's `mcps:` name, from this worker's pooled connections.
 * As in CrewAI (mcp/tool_resolver.py), a server that is not declared, cannot start or be reached,
 * or lacks a named tool does not fail the task: the agent runs without those tools, and each
 * `warnings` entry says which and why.
 */
export async function mcpTools(
  agent: AgentDef,
  ctx: ToolContext,
): Promise<{ tools: AgentTool[]; warnings: string[] }> {
  const wanted = agent.mcps ?? [];
  const warnings: string[] = [];
  if (!wanted.length) return { tools: [], warnings };
  const { servers } = await serversFor(ctx.db, ctx.crew.mcp_servers);
  const secrets = await readSecretValues(ctx.db);
  const without = `agent ${agent.id} runs without`;
  // Per server: every tool (undefined) or the named ones.
  const picks = new Map<string, Set<string> | undefined>();
  for (const entry of wanted) {
    const ref = parseMcpRef(entry);
    if (!ref) {
      warnings.push(`mcps: '${entry}' is not 'server' or 'server/tool': ${without} it.`);
      continue;
    }
    if (!servers.some((s) => s.name === ref.server)) {
      warnings.push(
        `MCP server '${ref.server}' (agent ${agent.id}'s mcps) is not declared (${servers.length ? `servers are ${servers.map((s) => s.name).join(", ")}` : "no MCP servers are declared in the crew's mcp_servers or in Settings → Tools"}): ${without} its tools.`,
      );
      continue;
    }
    const current = picks.get(ref.server);
    if (!ref.tool) picks.set(ref.server, undefined);
    else if (current || !picks.has(ref.server))
      picks.set(ref.server, new Set([...(current ?? []), ref.tool]));
  }
  const timeoutDefault = env().TOOL_TIMEOUT_SECONDS;
  const out: AgentTool[] = [];
  const taken = new Set<string>();
  for (const [name, only] of picks) {
    const def = servers.find((s) => s.name === name) as McpServerDef;
    let resolved: Resolved;
    let conn: Awaited<ReturnType<typeof connection>>;
    try {
      resolved = resolveServer(def, { env: process.env, secrets });
      conn = await connection(resolved);
    } catch (err) {
      const why = redact(errorMessage(err), [...secrets.values()]).replace(/\.$/, "");
      warnings.push(
        `${why.includes(`MCP server '${name}'`) ? why : `MCP server '${name}' could not be used: ${why}`}; ${without} its tools.`,
      );
      continue;
    }
    const remote = only ? conn.tools.filter((t) => only.has(t.name)) : conn.tools;
    for (const tool of only ?? []) {
      if (!conn.tools.some((t) => t.name === tool))
        warnings.push(
          `MCP server '${name}' has no tool '${tool}': its tools are ${conn.tools.map((t) => t.name).join(", ") || "(none)"}; ${without} it.`,
        );
    }
    const timeoutSeconds = def.timeout_seconds ?? timeoutDefault;
    for (const t of remote) {
      const modelName = uniqueName(`${name}_${t.name}`, taken);
      const description = redact(t.description ?? t.title ?? t.name, resolved.secrets);
      out.push({
        name: modelName,
        source: "mcp",
        server: name,
        remoteName: t.name,
        serverRequiresApproval: def.requires_approval,
        writes: t.annotations?.readOnlyHint !== true,
        timeoutSeconds,
        redact: (input) => redactDeep(input, resolved.secrets),
        tool: {
          description: `${description} (MCP server ${name})`,
          inputSchema: jsonSchema(inputSchemaOf(t.inputSchema)),
          execute: async (input: unknown, options: { abortSignal?: AbortSignal }) => {
            try {
              const result = await callTool(
                resolved,
                t.name,
                (input ?? {}) as Record<string, unknown>,
                {
                  signal: options.abortSignal,
                  timeoutMs: timeoutSeconds * 1000,
                },
              );
              return redactDeep(toModelResult(result), resolved.secrets);
            } catch (err) {
              return {
                error: redact(
                  `MCP server '${name}', tool '${t.name}': ${errorMessage(err)}`,
                  resolved.secrets,
                ),
              };
            }
          },
        } as Tool,
      });
    }
  }
  return { tools: out, warnings };
}

// A model's tool names are ^[A-Za-z0-9_-]{1,64}$ (OpenAI's and Anthropic's rule).
function uniqueName(raw: string, taken: Set<string>): string {
  const base = raw.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base.slice(0, 64 - String(i).length - 1)}_${i}`;
  taken.add(name);
  return name;
}

// A tool with no arguments may send `{}` or even `{type: "object"}` without properties.
// `$schema` (draft-07 from most servers) is dropped: some providers refuse it in tool parameters.
function inputSchemaOf(schema: McpTool["inputSchema"]): JSONSchema7 {
  const { $schema: _draft, ...rest } = schema as McpTool["inputSchema"] & { $schema?: string };
  return { ...rest, type: "object", properties: rest.properties ?? {} } as JSONSchema7;
}
