// GET /executions/{id}/reruns — the runs started again from this one (re-runs and forks).
import { RerunsResponseSchema } from "@/lib/contract/crew";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { otherMethods, runRoute } from "@/lib/http/routes";
import { listReruns } from "@/lib/runs/list-reruns";

export const dynamic = "force-dynamic";

export const GET = runRoute<{ id: string }>(
  async ({ principal, crew, params }) =>
    json(
      await listReruns({
        db: await getDb(),
        crew: crew.slug,
        principal,
        originId: params.kickoff_id,
      }),
    ),
  { response: RerunsResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
