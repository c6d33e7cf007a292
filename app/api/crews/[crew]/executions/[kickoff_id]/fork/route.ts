// POST /executions/{kickoff_id}/fork — a new run that starts at a task, the tasks before it taken
// from this run (one optionally edited first). The new run names its origin, as a re-run does.
import * as rerunApi from "@/lib/api/endpoints/rerun";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { forkExecution } from "@/lib/runs/fork-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute(rerunApi.fork, async ({ principal, crew, params, body }) => {
  const { from_task: fromTask, edit, ...request } = body;
  const id = await forkExecution({
    db: await getDb(),
    crew,
    principal,
    originId: params.kickoff_id,
    fromTask,
    edit,
    request,
  });
  return json({ kickoff_id: id, origin_id: params.kickoff_id });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
