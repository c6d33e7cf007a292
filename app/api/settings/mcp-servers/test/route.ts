// POST /api/settings/mcp-servers/test — connect to a server now and list its tools.

import * as toolsApi from "@/lib/api/endpoints/tools";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { testServer } from "@/lib/tools/mcp/settings";

export const dynamic = "force-dynamic";

export const POST = apiRoute(toolsApi.testMcpServer, async ({ body }) =>
  json(await testServer(await getDb(), body)),
);
