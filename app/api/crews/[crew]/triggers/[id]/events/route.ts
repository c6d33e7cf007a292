// GET /triggers/{id}/events — deliveries received, newest first: the run each started, or why not.

import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { listEvents } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.listTriggerEvents, async ({ crew, principal, params }) =>
  json({ events: await listEvents(await getDb(), ownerScope(crew.slug, principal), params.id) }),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
