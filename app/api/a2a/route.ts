// POST /api/a2a — the host's A2A 1.0 JSON-RPC endpoint: runs the crew a message names in
// metadata.crew; GetExtendedAgentCard lists the crews the token may start.

import * as protocolsApi from "@/lib/api/endpoints/protocols";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { handleA2a } from "@/lib/protocols/a2a/rpc";
import { assertProtocolOn } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute(protocolsApi.a2aHost, async ({ request, principal }) => {
  assertProtocolOn("a2a");
  return handleA2a({ db: await getDb(), principal, request, signal: request.signal });
});
