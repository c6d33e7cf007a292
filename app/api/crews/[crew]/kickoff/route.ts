// POST /kickoff — queue an execution with the given inputs; answers with its kickoff_id at once.

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { kickoffRemote } from "@/lib/deployments/remote-runs";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { createExecution } from "@/lib/runs/create-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute(crewApi.kickoff, async ({ principal, crew, deployment, body }) => {
  const db = await getDb();
  if (deployment && body.concurrency)
    throw errors.unprocessable(
      "A remote deployment's crew runs on the deployment, which applies no concurrency key from here: kick off without `concurrency`.",
      { errors: [{ path: "concurrency", message: "not for a remote deployment" }] },
    );
  // A remote crew's run: the deployment checks the inputs (as given); its webhooks come back,
  // and a `webhooks` stream goes out from here.
  const kickoffId = deployment
    ? await kickoffRemote({
        db,
        deployment,
        principal,
        inputs: body.inputs,
        webhooks: body.webhooks,
      })
    : await createExecution({ db, crew, principal, request: body });
  return json({ kickoff_id: kickoffId });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
