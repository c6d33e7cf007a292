// GET /experiments/{id} — progress, usage, the variants × metrics matrix, pairwise win rates,
// and (once it has ended) whether its gates held.
import { ownerScope } from "@/lib/auth/principal";
import { idParams } from "@/lib/contract/datasets";
import { ExperimentSchema } from "@/lib/contract/experiments";
import { getDb } from "@/lib/db";
import { getExperiment } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json(await getExperiment(await getDb(), ownerScope(crew.slug, principal), params.id)),
  { params: idParams("experiment"), response: ExperimentSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
