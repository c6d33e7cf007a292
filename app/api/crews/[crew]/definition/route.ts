// GET {base_url}/definition — the crew or flow described as GET /api/crews does, with its
// warnings (the crew's own URL stays CrewAI's health check).

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { env } from "@/lib/config/env";
import { describeCrew } from "@/lib/crew/describe-crew";
import { crewCatalog } from "@/lib/crew/registry";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(crewApi.crewDefinition, async ({ crew }) =>
  json(describeCrew(crew, crewCatalog().warnings, env())),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
