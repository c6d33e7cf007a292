// POST /executions/{kickoff_id}/rerun — start the run again with some inputs changed and, for a
// local crew, some agents on other models. The new run names its origin (`origin` in /status).
import * as rerunApi from "@/lib/api/endpoints/rerun";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { kickoffRemote } from "@/lib/deployments/remote-runs";
import { errors } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { getExecutionOrThrow } from "@/lib/runs/get-execution";
import { rerunExecution } from "@/lib/runs/rerun-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute(
  rerunApi.rerun,
  async ({ principal, crew, deployment, params, body }) => {
    const db = await getDb();
    const { models, ...request } = body;
    if (!deployment) {
      const id = await rerunExecution({
        db,
        crew,
        principal,
        originId: params.kickoff_id,
        request,
        models,
      });
      return json({ kickoff_id: id, origin_id: params.kickoff_id });
    }
    // A remote deployment's run: its inputs can change; its models are the deployment's own.
    if (models && Object.keys(models).length)
      throw errors.unprocessable(
        "A remote deployment runs its agents on its own models: re-run it without `models`.",
        { errors: [{ path: "models", message: "not for a remote deployment" }] },
      );
    const origin = await getExecutionOrThrow({
      db,
      crew: crew.slug,
      id: params.kickoff_id,
      principal,
    });
    const id = await kickoffRemote({
      db,
      deployment,
      principal,
      inputs: { ...origin.inputs, ...request.inputs },
      webhooks: request.webhooks,
      origin: { id: origin.id, kind: "rerun" },
    });
    return json({ kickoff_id: id, origin_id: origin.id });
  },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
