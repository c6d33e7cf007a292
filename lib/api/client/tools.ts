import type { McpSecretsInput, McpServersInput, McpTestRequest } from "@/lib/tools/mcp/schemas";
import { contract, request } from "./request";

const toolSchemas = contract(() => import("@/lib/tools/mcp/schemas"));

// Settings → Tools: the deployment's MCP servers and their secrets (administrators).
export const toolsApi = {
  servers: () => request(toolSchemas("McpServersViewSchema"), "GET", "/api/settings/mcp-servers"),
  saveServers: (body: McpServersInput) =>
    request(toolSchemas("McpServersViewSchema"), "PUT", "/api/settings/mcp-servers", body),
  test: (body: McpTestRequest) =>
    request(toolSchemas("McpTestResultSchema"), "POST", "/api/settings/mcp-servers/test", body),
  secrets: () => request(toolSchemas("McpSecretsViewSchema"), "GET", "/api/settings/mcp-secrets"),
  saveSecrets: (body: McpSecretsInput) =>
    request(toolSchemas("McpSecretsViewSchema"), "PUT", "/api/settings/mcp-secrets", body),
};
