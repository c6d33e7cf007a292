import { z } from "zod";
import { callDeployment, RemoteUnreachableError } from "./client";
import { readRemoteError } from "./remote-status";
import type { Deployment } from "./store";

type Step = "health" | "inputs";
export type ConnectionCheck =
  | { ok: true; inputs: string[]; health: string }
  | { ok: false; step: Step; reason: string };

const InputsSchema = z.object({ inputs: z.array(z.string()) });

/**
 * What Test connection shows: GET / (health, which needs a valid token) then GET /inputs, and
 * in words a person can act on, why it failed.
 */
export async function checkConnection(
  deployment: Pick<Deployment, "base_url" | "token">,
): Promise<ConnectionCheck> {
  const explain = (step: Step, status: number, body: unknown) => {
    if (status === 401 || status === 403)
      return `The deployment refused the token (${status}): paste a valid bearer token for this crew.`;
    if (status === 404)
      return `Nothing at ${deployment.base_url}${step === "inputs" ? "/inputs" : ""} (404): use the crew's base URL (on Crewdeck, …/api/crews/<crew>).`;
    if (status >= 300 && status < 400)
      return `The deployment answered with a redirect (${status}); use the final URL.`;
    return `The deployment answered ${status}: ${readRemoteError(status, body)}`;
  };

  const failed = (step: Step, reason: string) => ({
    failure: { ok: false as const, step, reason },
  });
  /** One step's GET: its answer when that is a 200, or why the step failed. */
  const ask = async (step: Step, path: string) => {
    try {
      const reply = await callDeployment(deployment, "GET", path);
      if (reply.status !== 200) return failed(step, explain(step, reply.status, reply.body));
      return { reply };
    } catch (err) {
      if (!(err instanceof RemoteUnreachableError)) throw err;
      return failed(step, `Unreachable: ${err.message}.`);
    }
  };

  const health = await ask("health", "");
  if ("failure" in health) return health.failure;
  const inputs = await ask("inputs", "/inputs");
  if ("failure" in inputs) return inputs.failure;
  const parsed = InputsSchema.safeParse(inputs.reply.body);
  if (!parsed.success)
    return {
      ok: false,
      step: "inputs",
      reason:
        'GET /inputs did not answer {"inputs": [...]}: this does not look like the Crew Execution Service API.',
    };
  return { ok: true, inputs: parsed.data.inputs, health: health.reply.text.slice(0, 200) };
}
