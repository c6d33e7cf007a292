// GET /variants — the crew's saved variants. POST — a variant: changes laid over the crew,
// checked against it now and saved with the definition key they give.
import * as experimentsApi from "@/lib/api/endpoints/experiments";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createVariant, listVariants } from "@/lib/experiments/variants";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(experimentsApi.listVariants, async ({ crew }) =>
  json({ variants: await listVariants(await getDb(), crew.slug) }),
);

export const POST = crewRoute(
  experimentsApi.createVariant,
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "variant");
    return json(await createVariant(await getDb(), crew, principal, body), { status: 201 });
  },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
