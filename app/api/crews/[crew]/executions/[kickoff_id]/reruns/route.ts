// GET /executions/{kickoff_id}/reruns — the runs started again from this one (re-runs and forks).
import * as rerunApi from "@/lib/api/endpoints/rerun";
import { otherMethods, runRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listReruns } from "@/lib/runs/list-reruns";

export const dynamic = "force-dynamic";

export const GET = runRoute(rerunApi.reruns, async ({ principal, crew, params }) =>
  json(
    await listReruns({
      db: await getDb(),
      crew: crew.slug,
      principal,
      originId: params.kickoff_id,
    }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
