// POST /api/a2a/{crew} — the crew as an A2A 1.0 agent (JSON-RPC binding): SendMessage,
// SendStreamingMessage, GetTask, CancelTask, SubscribeToTask.

import * as protocolsApi from "@/lib/api/endpoints/protocols";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { handleA2a } from "@/lib/protocols/a2a/rpc";
import { assertProtocolOn, readableCrew } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute(protocolsApi.a2aCrew, async ({ request, principal, params }) => {
  assertProtocolOn("a2a");
  const crew = readableCrew(principal, params.crew);
  return handleA2a({ db: await getDb(), principal, crew, request, signal: request.signal });
});
