import {
  McpSecretsInputSchema,
  McpSecretsViewSchema,
  McpServersInputSchema,
  McpServersViewSchema,
  McpTestRequestSchema,
  McpTestResultSchema,
} from "@/lib/tools/mcp/schemas";
import { endpoint } from "./endpoint";

// Agents' tools: the deployment's MCP servers and the secrets their settings refer to
// (administration, as the other deployment-wide settings).
const tag = "Administration";
const invalid = {
  400: "Malformed JSON or not an object.",
  413: "Body too large.",
  422: "Invalid fields (`errors`).",
};

export const mcpServers = endpoint({
  method: "GET",
  path: "/api/settings/mcp-servers",
  operationId: "mcpServers",
  tag,
  summary: "The deployment's MCP servers, offered to every crew's agents",
  description:
    "Merged under each crew's own `mcp_servers` when a task starts (the crew's win on a name both use). Credential-like values are references, never secrets in clear.",
  access: { action: "admin" },
  responses: { 200: { description: "OK", schema: McpServersViewSchema } },
});

export const saveMcpServers = endpoint({
  method: "PUT",
  path: "/api/settings/mcp-servers",
  operationId: "saveMcpServers",
  tag,
  summary: "Replace the deployment's MCP servers",
  description: `Checked as a crew's \`mcp_servers\`: a stdio server (command, args, env, cwd) or a Streamable HTTP one (url, headers). A value of a key that looks like a credential (authorization, token, key, secret, password, cookie…) must be \`\${env:NAME}\` or \`\${secret:NAME}\`. Sealed at rest.`,
  access: { action: "admin" },
  body: { schema: McpServersInputSchema, limit: 64 * 1024 },
  responses: { 200: { description: "Saved.", schema: McpServersViewSchema } },
  problems: invalid,
});

export const testMcpServer = endpoint({
  method: "POST",
  path: "/api/settings/mcp-servers/test",
  operationId: "testMcpServer",
  tag,
  summary: "Connect to an MCP server now and list its tools",
  description:
    "A saved server by `name`, or one not saved yet (`server`). HTTP servers go through the address check (TOOL_ALLOWED_NETWORKS for private and loopback addresses). A server that cannot start or be reached answers `ok: false` with the reason.",
  access: { action: "admin" },
  body: { schema: McpTestRequestSchema, limit: 16 * 1024 },
  responses: {
    200: { description: "Whether it answered, and its tools.", schema: McpTestResultSchema },
  },
  problems: { ...invalid, 404: "No saved server has that name." },
});

export const mcpSecrets = endpoint({
  method: "GET",
  path: "/api/settings/mcp-secrets",
  operationId: "mcpSecrets",
  tag,
  summary: `The names of the secrets MCP servers may refer to as \${secret:NAME}`,
  access: { action: "admin" },
  responses: { 200: { description: "Names only.", schema: McpSecretsViewSchema } },
});

export const saveMcpSecrets = endpoint({
  method: "PUT",
  path: "/api/settings/mcp-secrets",
  operationId: "saveMcpSecrets",
  tag,
  summary: "Set or remove secrets for MCP servers",
  description:
    "Each value is sealed at rest and never sent back; a null removes it. Names not given are kept.",
  access: { action: "admin" },
  body: { schema: McpSecretsInputSchema, limit: 64 * 1024 },
  responses: { 200: { description: "Saved; names only.", schema: McpSecretsViewSchema } },
  problems: invalid,
});
