// GET /schedules/{id}/fires — its due times, newest first: the run each started, or why none.

import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listFires } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.listScheduleFires, async ({ crew, principal, params }) =>
  json({ fires: await listFires(await getDb(), ownerScope(crew.slug, principal), params.id) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
