// GET /experiments — the crew's experiments, newest first. POST — run a dataset through
// variants of the crew, each row N times, and score every run (202: it runs in the workers).

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { getExperiment, listExperiments } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.listExperiments, async ({ crew, principal }) =>
  json({ experiments: await listExperiments(await getDb(), ownerScope(crew.slug, principal)) }),
);

export const POST = crewRoute(
  experimentsApi.createExperiment,
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "experiment");
    const db = await getDb();
    const scope = ownerScope(crew.slug, principal);
    const id = await createExperiment(db, crew, principal, scope, body);
    return json(await getExperiment(db, scope, id), { status: 202 });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
