// /api/mcp — the MCP server (Streamable HTTP): each crew the token may start is a tool.

import * as protocolsApi from "@/lib/api/endpoints/protocols";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { handleMcpRequest } from "@/lib/protocols/mcp/server";
import { assertProtocolOn } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

// Stateless: no session to resume and no standing stream, so GET and DELETE are Next's 405.
export const POST = apiRoute(protocolsApi.mcp, async ({ request, principal }) => {
  assertProtocolOn("mcp");
  return handleMcpRequest(request, await getDb(), principal);
});
