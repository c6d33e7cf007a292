import type { CrewDef } from "@/lib/crew/schema";
import { inputSpecsOf } from "@/lib/crew/validate-inputs";
import { AppError, errorMessage, errors } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/read-json";
import { isRecord } from "@/lib/util/field";

// A chat protocol sends words, not a form: a crew's inputs are read from a message as a person
// would mean them. Data (an A2A data part, AG-UI state) is the inputs; JSON text is too; plain
// text fills the crew's one input, or its one required input.

/** The input plain text fills, if the crew has exactly one candidate. */
function textInput(crew: CrewDef): string | undefined {
  const specs = inputSpecsOf(crew);
  if (specs.length === 1) return specs[0]?.name;
  const required = specs.filter((s) => s.required);
  return required.length === 1 ? required[0]?.name : undefined;
}

/** The message's text as a JSON object, if it is one; JSON a body could not hold is a 422. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.trim().startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = parseJsonText(text, "The message's JSON text");
  } catch (err) {
    if (err instanceof AppError && err.code === "malformed-json") return undefined; // words
    throw errors.unprocessable(errorMessage(err), {
      errors: [{ path: "message.text", message: errorMessage(err) }],
    });
  }
  return isRecord(value) ? value : undefined;
}

/** The crew's inputs from a message's data (an object of inputs) and text. */
export function inputsFromMessage(
  crew: CrewDef,
  { data, text }: { data?: Record<string, unknown>; text: string },
): Record<string, unknown> {
  if (data) return isRecord(data.inputs) ? data.inputs : data;
  const json = jsonObject(text);
  if (json) return isRecord(json.inputs) ? json.inputs : json;
  const names = inputSpecsOf(crew).map((s) => s.name);
  if (!names.length || !text.trim()) return {};
  const target = textInput(crew);
  if (target) return { [target]: text.trim() };
  throw errors.unprocessable(
    `'${crew.slug}' takes several inputs (${names.join(", ")}): send them as data ({"${names[0]}": …}) or as a JSON object in the text.`,
    { errors: names.map((n) => ({ path: `inputs.${n}`, message: "give it by name" })) },
  );
}
