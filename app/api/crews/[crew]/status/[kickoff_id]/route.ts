// GET /status/{kickoff_id} — the execution's state, tasks and outputs so far. Polled hard: one query.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { jsonText } from "@/lib/http/respond";
import { loadModelPrices } from "@/lib/run-model/pricing";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { statusJson } from "@/lib/runs/status-view";

export const dynamic = "force-dynamic";

export const GET = runRoute(crewApi.status, async ({ principal, crew, params }) => {
  const db = await getDb();
  const row = await getExecutionOrThrow({
    db,
    crew: crew.slug,
    id: params.kickoff_id,
    principal,
  });
  return jsonText(statusJson(row, await loadModelPrices(db)));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
