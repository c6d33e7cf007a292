// GET /schedules/{id}/fires — its due times, newest first: the run each started, or why none.

import { ownerScope } from "@/lib/auth/principal";
import { ScheduleFiresResponseSchema } from "@/lib/contract/schedules";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { listFires } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json({ fires: await listFires(await getDb(), ownerScope(crew.slug, principal), params.id) }),
  { response: ScheduleFiresResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
