// GET /executions/{id}/artifacts — the run's files (outputs of tasks with output_file).

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listArtifacts } from "@/lib/runs/artifacts";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = crewRoute(crewApi.artifacts, async ({ principal, crew, params }) => {
  const db = await getDb();
  const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.kickoff_id, principal });
  return json({ artifacts: await listArtifacts({ q: db, crew: crew.slug, id: run.id }) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
