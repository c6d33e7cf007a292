// GET /.well-known/agent-card.json — the host's public A2A 1.0 agent card. It names no crew:
// each crew's card, and the extended card, need a token.

import { toProblem } from "@/lib/http/problem";
import { hostCard } from "@/lib/protocols/a2a/card";
import { assertProtocolOn } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export async function GET() {
  try {
    assertProtocolOn("a2a");
    return Response.json(hostCard());
  } catch (err) {
    return toProblem(err);
  }
}
