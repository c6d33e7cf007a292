import type { JSONSchema7 } from "@ai-sdk/provider";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchema, tool } from "ai";
import { env } from "@/lib/config/env";
import { type McpServerDef, mergeServers } from "@/lib/crew/mcp-config";
import type { AgentDef } from "@/lib/crew/schema";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import type { AgentTool, ToolContext } from "@/lib/tools/types";
import { isRecord } from "@/lib/util/field";
import {
  missingToolWarnings,
  pickedTools,
  pickServers,
  uniqueName,
  unusableWarning,
} from "./picks";
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
  if (!wanted.length) return { tools: [], warnings: [] };
  const { servers } = await serversFor(ctx.db, ctx.crew.mcp_servers);
  const secrets = await readSecretValues(ctx.db);
  const { picks, warnings } = pickServers(wanted, servers, agent.id);
  const timeoutDefault = env().TOOL_TIMEOUT_SECONDS;
  const out: AgentTool[] = [];
  const taken = new Set<string>();
  for (const [name, { def, only }] of picks) {
    let resolved: Resolved;
    let conn: Awaited<ReturnType<typeof connection>>;
    try {
      resolved = resolveServer(def, { env: process.env, secrets });
      conn = await connection(resolved);
    } catch (err) {
      warnings.push(
        unusableWarning(name, redact(errorMessage(err), [...secrets.values()]), agent.id),
      );
      continue;
    }
    warnings.push(...missingToolWarnings(name, only, conn.tools, agent.id));
    const timeoutSeconds = def.timeout_seconds ?? timeoutDefault;
    for (const t of pickedTools(conn.tools, only)) {
      const modelName = uniqueName(`${name}_${t.name}`, taken);
      out.push(remoteTool({ modelName, server: name, def, remote: t, resolved, timeoutSeconds }));
    }
  }
  return { tools: out, warnings };
}

/** One tool of a connected server as the agent calls it: secrets kept out of what is shown. */
function remoteTool({
  modelName,
  server,
  def,
  remote: t,
  resolved,
  timeoutSeconds,
}: {
  modelName: string;
  server: string;
  def: McpServerDef;
  remote: McpTool;
  resolved: Resolved;
  timeoutSeconds: number;
}): AgentTool {
  const description = redact(t.description ?? t.title ?? t.name, resolved.secrets);
  return {
    name: modelName,
    source: "mcp",
    server,
    remoteName: t.name,
    serverRequiresApproval: def.requires_approval,
    writes: t.annotations?.readOnlyHint !== true,
    timeoutSeconds,
    redact: (input) => redactDeep(input, resolved.secrets),
    tool: tool({
      description: `${description} (MCP server ${server})`,
      inputSchema: jsonSchema<unknown>(inputSchemaOf(t.inputSchema)),
      execute: async (input: unknown, options: { abortSignal?: AbortSignal }) => {
        try {
          const result = await callTool(resolved, t.name, isRecord(input) ? input : {}, {
            signal: options.abortSignal,
            timeoutMs: timeoutSeconds * 1000,
          });
          return redactDeep(toModelResult(result), resolved.secrets);
        } catch (err) {
          return {
            error: redact(
              `MCP server '${server}', tool '${t.name}': ${errorMessage(err)}`,
              resolved.secrets,
            ),
          };
        }
      },
    }),
  };
}

// A tool with no arguments may send `{}` or even `{type: "object"}` without properties.
// `$schema` (draft-07 from most servers) is dropped: some providers refuse it in tool parameters.
function inputSchemaOf(schema: McpTool["inputSchema"]): JSONSchema7 {
  const { $schema: _draft, ...rest } = schema;
  // The SDK checked that it is an object schema; the rest of JSON Schema it types as unknown.
  return { ...rest, type: "object", properties: rest.properties ?? {} } as JSONSchema7;
}
