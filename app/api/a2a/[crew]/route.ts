// POST /api/a2a/{crew} — the crew as an A2A 1.0 agent (JSON-RPC binding): SendMessage,
// SendStreamingMessage, GetTask, CancelTask, SubscribeToTask.
import { getDb } from "@/lib/db";
import { apiRoute } from "@/lib/http/routes";
import { handleA2a } from "@/lib/protocols/a2a/rpc";
import { assertProtocolOn, readableCrew } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ crew: string }>(
  async ({ request, principal, params }) => {
    assertProtocolOn("a2a");
    const crew = readableCrew(principal, params.crew);
    return handleA2a({ db: await getDb(), principal, crew, request, signal: request.signal });
  },
  { action: "per-call" },
);
