// GET /triggers/{id}/events — deliveries received, newest first: the run each started, or why not.

import { ownerScope } from "@/lib/auth/principal";
import { TriggerEventsResponseSchema } from "@/lib/contract/triggers";
import { getDb } from "@/lib/db";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";
import { listEvents } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute<{ id: string }>(
  async ({ crew, principal, params }) =>
    json({ events: await listEvents(await getDb(), ownerScope(crew.slug, principal), params.id) }),
  { response: TriggerEventsResponseSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
