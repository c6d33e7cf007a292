// GET /executions/{id}/events?after=N — the execution's event log after sequence N.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { listEvents } from "@/lib/runs/list-events";

export const dynamic = "force-dynamic";

export const GET = runRoute(crewApi.events, async ({ principal, crew, params, query }) => {
  const db = await getDb();
  await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  return json(await listEvents({ q: db, id: params.kickoff_id, ...query }));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
