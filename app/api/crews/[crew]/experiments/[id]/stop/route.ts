// POST /experiments/{id}/stop — unstarted cells are skipped and running ones stopped.

import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope, principalName } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { errors } from "@/lib/errors";
import { endEarly } from "@/lib/experiments/advance";
import { experimentRow, getExperiment } from "@/lib/experiments/experiment-view";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  experimentsApi.stopExperiment,
  async ({ crew, principal, params }) => {
    const db = await getDb();
    const scope = ownerScope(crew.slug, principal);
    const row = await experimentRow(db, scope, params.id);
    if (row.status !== "running")
      throw errors.conflict(`Experiment ${row.id} has already ended (${row.status}).`);
    const by = principalName(principal);
    await endEarly(db, row.id, "stopped", `Stopped by ${by}.`, by);
    return json(await getExperiment(db, scope, row.id));
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
