// GET /inputs — the names of the inputs the crew requires, and their JSON Schema.

import { z } from "zod";
import type { InputsResponseSchema } from "@/lib/contract/crew";
import { InputSchema, toInputSchema, undeclaredInput } from "@/lib/crew/input-schema";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { forwardGet } from "@/lib/deployments/remote-runs";
import { AppError } from "@/lib/errors";
import { json } from "@/lib/http/respond";
import { crewRoute, otherMethods } from "@/lib/http/routes";

export const dynamic = "force-dynamic";

type InputsResponse = z.infer<typeof InputsResponseSchema>;

const RemoteInputsSchema = z.object({
  inputs: z.array(z.string().max(200)).max(200),
  input_schema: z.unknown().optional(),
});

export const GET = crewRoute(async ({ crew, deployment }) => {
  if (!deployment) {
    const body: InputsResponse = {
      inputs: crew.inputs,
      input_schema: toInputSchema(inputSpecsOf(crew)),
    };
    return json(body);
  }
  const parsed = RemoteInputsSchema.safeParse((await forwardGet(deployment, "/inputs")).body);
  if (!parsed.success)
    throw new AppError(
      "remote-error",
      502,
      'The deployment\'s /inputs did not answer {"inputs": [...]}; check its base URL in Settings → Deployments.',
    );
  // Another Crewdeck describes its inputs; a CrewAI server names them: required strings.
  const remote = InputSchema.safeParse(parsed.data.input_schema);
  const body: InputsResponse = {
    inputs: parsed.data.inputs,
    input_schema: remote.success
      ? remote.data
      : toInputSchema(parsed.data.inputs.map(undeclaredInput)),
  };
  return json(body);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");
