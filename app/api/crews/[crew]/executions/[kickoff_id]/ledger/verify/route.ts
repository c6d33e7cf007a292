// GET /executions/{id}/ledger/verify — whether the run's decision ledger is intact.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listLedger } from "@/lib/ledger/list-entries";
import { verifyChain } from "@/lib/ledger/verify";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = runRoute(crewApi.verifyLedger, async ({ principal, crew, params }) => {
  const db = await getDb();
  const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  return json(verifyChain(await listLedger({ q: db, id: run.id })));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
