import {
  McpSecretsInputSchema,
  McpSecretsViewSchema,
  McpServersInputSchema,
  McpServersViewSchema,
  McpTestRequestSchema,
  McpTestResultSchema,
} from "@/lib/tools/mcp/schemas";
import { endpoint } from "./endpoint";
import { admin, INVALID_BODY, setting } from "./shared";

// Agents' tools: the deployment's MCP servers and the secrets their settings refer to
// (administration, as the other deployment-wide settings).
const tag = "Administration";

const servers = setting("/api/settings/mcp-servers", {
  tag,
  access: admin,
  view: McpServersViewSchema,
});

export const mcpServers = servers.get({
  operationId: "mcpServers",
  summary: "The deployment's MCP servers, offered to every crew's agents",
  description:
    "Merged under each crew's own `mcp_servers` when a task starts (the crew's win on a name both use). Credential-like values are references, never secrets in clear.",
});

export const saveMcpServers = servers.save({
  operationId: "saveMcpServers",
  summary: "Replace the deployment's MCP servers",
  description: `Checked as a crew's \`mcp_servers\`: a stdio server (command, args, env, cwd) or a Streamable HTTP one (url, headers). A value of a key that looks like a credential (authorization, token, key, secret, password, cookie…) must be \`\${env:NAME}\` or \`\${secret:NAME}\`. Sealed at rest.`,
  body: { schema: McpServersInputSchema, limit: 64 * 1024 },
});

export const testMcpServer = endpoint({
  method: "POST",
  path: "/api/settings/mcp-servers/test",
  operationId: "testMcpServer",
  tag,
  summary: "Connect to an MCP server now and list its tools",
  description:
    "A saved server by `name`, or one not saved yet (`server`). HTTP servers go through the address check (TOOL_ALLOWED_NETWORKS for private and loopback addresses). A server that cannot start or be reached answers `ok: false` with the reason.",
  access: admin,
  body: { schema: McpTestRequestSchema, limit: 16 * 1024 },
  responses: {
    200: { description: "Whether it answered, and its tools.", schema: McpTestResultSchema },
  },
  problems: { ...INVALID_BODY, 404: "No saved server has that name." },
});

const secrets = setting("/api/settings/mcp-secrets", {
  tag,
  access: admin,
  view: McpSecretsViewSchema,
});

export const mcpSecrets = secrets.get({
  operationId: "mcpSecrets",
  summary: `The names of the secrets MCP servers may refer to as \${secret:NAME}`,
  reply: "Names only.",
});

export const saveMcpSecrets = secrets.save({
  operationId: "saveMcpSecrets",
  summary: "Set or remove secrets for MCP servers",
  description:
    "Each value is sealed at rest and never sent back; a null removes it. Names not given are kept.",
  body: { schema: McpSecretsInputSchema, limit: 64 * 1024 },
  reply: "Saved; names only.",
});
