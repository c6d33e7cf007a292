// /api/settings/mcp-servers — the deployment's MCP servers, offered to every crew's agents
// (administrators). Credential-like values are references (${env:…}, ${secret:…}), never clear.

import * as toolsApi from "@/lib/api/endpoints/tools";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { describeServers, saveServers } from "@/lib/tools/mcp/settings";

export const dynamic = "force-dynamic";

export const GET = apiRoute(toolsApi.mcpServers, async () =>
  json(await describeServers(await getDb())),
);

export const PUT = apiRoute(toolsApi.saveMcpServers, async ({ body }) =>
  json(await saveServers(await getDb(), body.servers)),
);
