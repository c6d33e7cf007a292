// POST /stop/{kickoff_id} — cancel a queued, running or paused execution.
import { StopResponseSchema } from "@/lib/contract/crew";
import { getDb } from "@/lib/db";
import { stopRemote } from "@/lib/deployments/remote-runs";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { stopExecution } from "@/lib/runs/stop-execution";

export const dynamic = "force-dynamic";

export const POST = runRoute<{ id: string }>(
  async ({ principal, crew, params, deployment }) => {
    const db = await getDb();
    if (deployment) await stopRemote(db, deployment, principal, params.id);
    else await stopExecution({ db, crew: crew.slug, id: params.id, principal });
    return json({ status: "stopped", kickoff_id: params.id });
  },
  { action: "stop", response: StopResponseSchema },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
