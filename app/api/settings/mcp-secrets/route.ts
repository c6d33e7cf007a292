// /api/settings/mcp-secrets — the values ${secret:NAME} stands for in MCP servers' env, headers,
// URLs and arguments (administrators). Sealed at rest; only their names are ever sent back.

import * as toolsApi from "@/lib/api/endpoints/tools";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listSecrets, saveSecrets } from "@/lib/tools/mcp/store";

export const dynamic = "force-dynamic";

export const GET = apiRoute(toolsApi.mcpSecrets, async () =>
  json({ secrets: await listSecrets(await getDb()) }),
);

export const PUT = apiRoute(toolsApi.saveMcpSecrets, async ({ body }) => {
  const db = await getDb();
  await saveSecrets(db, body.secrets);
  return json({ secrets: await listSecrets(db) });
});
