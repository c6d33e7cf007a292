// GET /experiments — the crew's experiments, newest first. POST — run a dataset through
// variants of the crew, each row N times, and score every run (202: it runs in the workers).
import { ownerScope } from "@/lib/auth/principal";
import {
  type ExperimentCreate,
  ExperimentCreateSchema,
  ExperimentSchema,
  ExperimentsResponseSchema,
} from "@/lib/contract/experiments";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createExperiment } from "@/lib/experiments/create-experiment";
import { getExperiment, listExperiments } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew, principal }) =>
    json({ experiments: await listExperiments(await getDb(), ownerScope(crew.slug, principal)) }),
  { response: ExperimentsResponseSchema },
);

export const POST = crewRoute<NoParams, ExperimentCreate>(
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "experiment");
    const db = await getDb();
    const scope = ownerScope(crew.slug, principal);
    const id = await createExperiment(db, crew, principal, scope, body);
    return json(await getExperiment(db, scope, id), { status: 202 });
  },
  { action: "start", body: ExperimentCreateSchema, response: { 202: ExperimentSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
