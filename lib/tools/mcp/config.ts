import { z } from "zod";
import { RequiresApprovalSchema } from "@/lib/crew/schema";

// An MCP server as a crew file (`mcp_servers:`) or Settings declares it: a local program spoken
// to over stdio, or a Streamable HTTP endpoint. Secrets are never written in clear: values that
// carry them are `${env:NAME}` (Crewdeck's environment) or `${secret:NAME}` (sealed settings).
const StdioServerSchema = z.object({
  command: z.string().trim().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
const HttpServerSchema = z.object({
  url: z.url(),
  headers: z.record(z.string(), z.string()).default({}),
});
const Common = z.object({
  requires_approval: RequiresApprovalSchema.optional(),
  // Per-call time-out for this server's tools (TOOL_TIMEOUT_SECONDS unless set).
  timeout_seconds: z.number().int().positive().max(3600).optional(),
});

export const McpServerSchema = z.union([
  StdioServerSchema.extend(Common.shape).strict(),
  HttpServerSchema.extend(Common.shape).strict(),
]);

export type McpServerDef = z.infer<typeof McpServerSchema> & { name: string };
