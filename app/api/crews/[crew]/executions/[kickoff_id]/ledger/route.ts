// GET /executions/{id}/ledger — the run's decision ledger (?download=1: as a file to keep).

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listLedger } from "@/lib/ledger/list-entries";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = runRoute(crewApi.ledger, async ({ principal, crew, params, query }) => {
  const db = await getDb();
  // Who may see the run may read its ledger; anyone else learns nothing (404).
  const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  const entries = await listLedger({ q: db, id: run.id });
  return json(
    { execution_id: run.id, crew: crew.slug, entries },
    query.download === "1"
      ? { headers: { "content-disposition": `attachment; filename="${run.id}-ledger.json"` } }
      : {},
  );
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
