// /api/settings/mcp-secrets — the values ${secret:NAME} stands for in MCP servers' env, headers,
// URLs and arguments (administrators). Sealed at rest; only their names are ever sent back.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { apiRoute } from "@/lib/http/routes";
import { McpSecretsInputSchema, McpSecretsViewSchema } from "@/lib/tools/mcp/schemas";
import { listSecrets, saveSecrets } from "@/lib/tools/mcp/store";

export const dynamic = "force-dynamic";

export const GET = apiRoute(async () => json({ secrets: await listSecrets(await getDb()) }), {
  action: "admin",
  response: McpSecretsViewSchema,
});

export const PUT = apiRoute(
  async ({ body }) => {
    const db = await getDb();
    await saveSecrets(db, body.secrets);
    return json({ secrets: await listSecrets(db) });
  },
  {
    action: "admin",
    body: McpSecretsInputSchema,
    bodyLimit: 64 * 1024,
    response: McpSecretsViewSchema,
  },
);
