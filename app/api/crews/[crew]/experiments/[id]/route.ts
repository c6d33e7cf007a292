// GET /experiments/{id} — progress, usage, the variants × metrics matrix, pairwise win rates,
// and (once it has ended) whether its gates held.

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { getExperiment } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.getExperiment, async ({ crew, principal, params }) =>
  json(await getExperiment(await getDb(), ownerScope(crew.slug, principal), params.id)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
