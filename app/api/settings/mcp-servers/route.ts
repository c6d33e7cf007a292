// /api/settings/mcp-servers — the deployment's MCP servers, offered to every crew's agents
// (administrators). Credential-like values are references (${env:…}, ${secret:…}), never clear.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { McpServersInputSchema, McpServersViewSchema } from "@/lib/tools/mcp/schemas";
import { describeServers, saveServers } from "@/lib/tools/mcp/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json(await describeServers(await getDb())), {
  action: "admin",
  response: McpServersViewSchema,
});

export const PUT = apiRoute(
  async ({ body }) => json(await saveServers(await getDb(), body.servers)),
  {
    action: "admin",
    body: McpServersInputSchema,
    bodyLimit: 64 * 1024,
    response: McpServersViewSchema,
  },
);
