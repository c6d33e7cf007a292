// POST /stop/{kickoff_id} — cancel a queued, running or paused execution.

import * as crewApi from "@/lib/api/endpoints/crew";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { stopRemote } from "@/lib/deployments/remote-runs";
import { json } from "@/lib/http/respond";
import { stopExecution } from "@/lib/runs/stop-execution";

export const dynamic = "force-dynamic";

export const POST = runRoute(crewApi.stop, async ({ principal, crew, params, deployment }) => {
  const db = await getDb();
  if (deployment) await stopRemote(db, deployment, principal, params.kickoff_id);
  else await stopExecution({ db, crew: crew.slug, id: params.kickoff_id, principal });
  return json({ status: "stopped", kickoff_id: params.kickoff_id });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
