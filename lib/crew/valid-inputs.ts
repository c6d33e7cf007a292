import { errors } from "@/lib/errors";
import type { InputScalar } from "./input-schema";
import type { CrewDef } from "./schema";
import { checkInputs, inputSpecsOf } from "./validate-inputs";

/**
 * Kickoff's inputs, typed and in the crew's order — or the error that says what is wrong:
 * 400 for an object given to a declared input that is not json, 422 naming missing and invalid
 * inputs.
 */
export function validInputs(
  crew: Pick<CrewDef, "inputs" | "input_specs">,
  given: Record<string, unknown>,
): Record<string, InputScalar> {
  const checked = checkInputs(inputSpecsOf(crew), given);
  if (checked.malformed.length)
    throw errors.badRequest("The request body is invalid.", checked.malformed);
  const { missing, invalid } = checked;
  if (!missing.length && !invalid.length) return checked.values;
  const parts = [
    missing.length ? `Missing required inputs: ${missing.join(", ")}.` : "",
    invalid.length
      ? `Invalid inputs: ${invalid.map((e) => `${e.path.slice("inputs.".length)} ${e.message}`).join("; ")}.`
      : "",
  ];
  throw errors.unprocessable(`${parts.filter(Boolean).join(" ")} GET /inputs lists them.`, {
    ...(missing.length ? { missing_inputs: missing } : {}),
    ...(invalid.length ? { errors: invalid } : {}),
  });
}
