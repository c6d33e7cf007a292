// GET {base_url}/definition — the crew or flow described as GET /api/crews does, with its
// warnings (the crew's own URL stays CrewAI's health check).

import { env } from "@/lib/config/env";
import { CrewDescriptionSchema } from "@/lib/contract/crew-catalog";
import { describeCrew } from "@/lib/crew/describe-crew";
import { crewCatalog } from "@/lib/crew/registry";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

export const GET = crewRoute(
  async ({ crew }) => json(describeCrew(crew, crewCatalog().warnings, env())),
  { response: CrewDescriptionSchema },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
