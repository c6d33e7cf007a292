// POST /api/ag-ui/{crew} — the crew as an AG-UI agent: RunAgentInput in, events out (SSE).
import { getDb } from "@/lib/db";
import { apiRoute } from "@/lib/http/routes";
import { type RunAgentInput, RunAgentInputSchema, runAgUi } from "@/lib/protocols/ag-ui/run";
import { assertProtocolOn, readableCrew } from "@/lib/protocols/runs";

export const dynamic = "force-dynamic";

export const POST = apiRoute<{ crew: string }, RunAgentInput>(
  async ({ request, principal, params, body }) => {
    assertProtocolOn("ag-ui");
    const { slug } = readableCrew(principal, params.crew);
    return runAgUi({ db: await getDb(), principal, slug, request }, body);
  },
  // Starting needs `start`; answering an interrupt, `review` too (checked where it decides).
  { action: "start", body: RunAgentInputSchema, invalid: 422 },
);
