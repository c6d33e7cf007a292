// POST /api/ag-ui/{crew} — the crew as an AG-UI agent: RunAgentInput in, events out (SSE).

import * as protocolsApi from "@/lib/api/endpoints/protocols";
import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { runAgUi } from "@/lib/protocols/ag-ui/run";
import { assertProtocolOn, readableCrew } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute(protocolsApi.agUiRun, async ({ request, principal, params, body }) => {
  assertProtocolOn("ag-ui");
  const { slug } = readableCrew(principal, params.crew);
  return runAgUi({ db: await getDb(), principal, slug, request }, body);
});
