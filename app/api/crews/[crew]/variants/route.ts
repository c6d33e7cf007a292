// GET /variants — the crew's saved variants. POST — a variant: changes laid over the crew,
// checked against it now and saved with the definition key they give.
import type { z } from "zod";
import {
  VariantCreateSchema,
  VariantSchema,
  VariantsResponseSchema,
} from "@/lib/contract/datasets";
import { getDb } from "@/lib/db";
import { assertLocal } from "@/lib/deployments/local-only";
import { createVariant, listVariants } from "@/lib/experiments/variants";
import { json } from "@/lib/http/respond";
import { crewRoute, type NoParams, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew }) => json({ variants: await listVariants(await getDb(), crew.slug) }),
  { response: VariantsResponseSchema },
);

export const POST = crewRoute<NoParams, z.infer<typeof VariantCreateSchema>>(
  async ({ crew, deployment, principal, body }) => {
    assertLocal(deployment, "variant");
    return json(await createVariant(await getDb(), crew, principal, body), { status: 201 });
  },
  { action: "start", body: VariantCreateSchema, response: { 201: VariantSchema } },
);

export const { PUT, PATCH, DELETE } = otherMethods("GET, POST");
