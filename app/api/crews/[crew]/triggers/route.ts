// GET /triggers — the crew's triggers. POST /triggers — a new one; its secret is in this answer
// only (rotate it to see a new one).
import * as automationApi from "@/lib/api/endpoints/automation";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { ownerScope } from "@/lib/auth/principal";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { json } from "@/lib/http/respond";
import { createTrigger, listTriggers } from "@/lib/triggers/store";

export const dynamic = "force-dynamic";

export const GET = crewRoute(automationApi.listTriggers, async ({ crew, principal }) =>
  json({ triggers: await listTriggers(await getDb(), ownerScope(crew.slug, principal)) }),
);

export const POST = crewRoute(
  automationApi.createTrigger,
  async ({ principal, crew, deployment, body }) => {
    assertLocal(deployment, "trigger");
    const created = await createTrigger(await getDb(), crew, principal, body);
    return json(created, { status: 201, headers: { "cache-control": "no-store" } });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
