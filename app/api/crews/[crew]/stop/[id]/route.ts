// POST /stop/{kickoff_id} — cancel a queued, running or paused execution.
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { stopExecution } from "@/lib/runs/stop-execution";

export const dynamic = "force-dynamic";

export const POST = crewRoute<{ id: string }>(
  async ({ principal, crew, params }) => {
    await stopExecution({ db: await getDb(), crew: crew.slug, id: params.id, principal });
    return json({ status: "stopped", kickoff_id: params.id });
  },
  { action: "stop" },
);

export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
