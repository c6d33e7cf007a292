// GET /executions/{id}/artifacts — the run's files (outputs of tasks with output_file).

import { ArtifactsResponseSchema } from "@/lib/contract/status";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { listArtifacts } from "@/lib/runs/artifacts";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ principal, crew, params }) => {
    const db = await getDb();
    const run = await getExecutionOrThrow({ db, crew: crew.slug, id: params.id, principal });
    return json({ artifacts: await listArtifacts({ q: db, crew: crew.slug, id: run.id }) });
  },
  { response: ArtifactsResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
