import { z } from "zod";
import { InputSchema } from "@/lib/contract/inputs";
import { toInputSchema, undeclaredInput } from "@/lib/crew/input-schema";
import { AppError } from "@/lib/errors";
import { forwardGet } from "./remote-runs";
import type { Deployment } from "./store";

const RemoteInputsSchema = z.object({
  inputs: z.array(z.string().max(200)).max(200),
  input_schema: z.unknown().optional(),
});

/**
 * A remote deployment's crew's inputs, as GET /inputs answers them: another Crewdeck describes
 * its inputs; a CrewAI server only names them, so they are required strings.
 */
export async function remoteInputs(deployment: Deployment) {
  const parsed = RemoteInputsSchema.safeParse((await forwardGet(deployment, "/inputs")).body);
  if (!parsed.success)
    throw new AppError(
      "remote-error",
      502,
      'The deployment\'s /inputs did not answer {"inputs": [...]}; check its base URL in Settings → Deployments.',
    );
  const remote = InputSchema.safeParse(parsed.data.input_schema);
  return {
    inputs: parsed.data.inputs,
    input_schema: remote.success
      ? remote.data
      : toInputSchema(parsed.data.inputs.map(undeclaredInput)),
  };
}
