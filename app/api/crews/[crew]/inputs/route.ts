// GET /inputs — the names of the inputs the crew requires, and their JSON Schema.

import * as crewApi from "@/lib/api/endpoints/crew";
import { crewRoute, otherMethods } from "@/lib/api/route";
import { toInputSchema } from "@/lib/crew/input-schema";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { remoteInputs } from "@/lib/deployments/remote-inputs";
import { json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = crewRoute(crewApi.inputs, async ({ crew, deployment }) => {
  if (deployment) return json(await remoteInputs(deployment));
  return json({ inputs: crew.inputs, input_schema: toInputSchema(inputSpecsOf(crew)) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
