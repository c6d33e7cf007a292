import type { McpSecretsInput, McpServersInput, McpTestRequest } from "@/lib/tools/mcp/schemas";
import { request, schema } from "./request";

// Settings → Tools: the deployment's MCP servers and their secrets (administrators).
export const toolsApi = {
  servers: () => request(schema("McpServersViewSchema"), "GET", "/api/settings/mcp-servers"),
  saveServers: (body: McpServersInput) =>
    request(schema("McpServersViewSchema"), "PUT", "/api/settings/mcp-servers", body),
  test: (body: McpTestRequest) =>
    request(schema("McpTestResultSchema"), "POST", "/api/settings/mcp-servers/test", body),
  secrets: () => request(schema("McpSecretsViewSchema"), "GET", "/api/settings/mcp-secrets"),
  saveSecrets: (body: McpSecretsInput) =>
    request(schema("McpSecretsViewSchema"), "PUT", "/api/settings/mcp-secrets", body),
};
