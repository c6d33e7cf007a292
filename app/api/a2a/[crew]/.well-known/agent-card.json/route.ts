// GET /api/a2a/{crew}/.well-known/agent-card.json — the crew's A2A 1.0 agent card (with a token:
// crews are not public).
import * as protocolsApi from "@/lib/api/endpoints/protocols";
import { apiRoute } from "@/lib/api/route";
import { crewCard } from "@/lib/protocols/a2a/card";
import { assertProtocolOn, readableCrew } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const GET = apiRoute(protocolsApi.a2aCrewCard, async ({ principal, params }) => {
  assertProtocolOn("a2a");
  return Response.json(crewCard(readableCrew(principal, params.crew)));
});
