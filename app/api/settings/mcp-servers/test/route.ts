// POST /api/settings/mcp-servers/test — connect to a server now and list its tools.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { McpTestRequestSchema, McpTestResultSchema } from "@/lib/tools/mcp/schemas";
import { testServer } from "@/lib/tools/mcp/settings";

export const dynamic = "force-dynamic";

export const POST = apiRoute(async ({ body }) => json(await testServer(await getDb(), body)), {
  action: "admin",
  body: McpTestRequestSchema,
  bodyLimit: 16 * 1024,
  response: McpTestResultSchema,
});
