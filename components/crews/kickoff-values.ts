import { jsonProblem } from "@/components/json-problem";
import { ApiError } from "@/lib/api/client";
import type { InputSchema } from "@/lib/crew/input-schema";
import type { FormValue } from "./kickoff-fields";

// The kickoff form's values (kickoff-form.tsx): where they start, what is sent, what came back.

export type KickoffInputs = Record<string, string | number | boolean>;

/** A crew whose /inputs has no input_schema (an older remote deployment): every input a text field. */
export const fromNames = (names: string[]): InputSchema => ({
  type: "object",
  properties: Object.fromEntries(
    names.map((n) => [n, { type: "string" as const, title: n, "x-control": "text" as const }]),
  ),
  required: names,
  "x-order": names,
});

/** The form's first values: a re-run's origin inputs where given, else each input's default. */
export function initialValues(
  schema: InputSchema,
  prefill?: Record<string, unknown>,
): Record<string, FormValue> {
  return Object.fromEntries(
    schema["x-order"].map((n) => {
      const p = schema.properties[n];
      const d = prefill && n in prefill ? prefill[n] : p?.default;
      if (p?.["x-control"] === "checkbox") return [n, d === true];
      if (d === undefined || d === null) return [n, ""];
      return [n, typeof d === "object" ? JSON.stringify(d, null, 2) : String(d)];
    }),
  );
}

/**
 * The inputs to send, each as its control reads it, and the fields wrong before sending (JSON
 * that does not parse). An empty field is left out, except on a re-run (`rerun`): there it is
 * sent empty, or the origin's value would stay. The server says which empty ones are required.
 */
export function kickoffInputs(
  schema: InputSchema,
  values: Record<string, FormValue>,
  rerun: boolean,
): { inputs: KickoffInputs; problems: Record<string, string> } {
  const inputs: KickoffInputs = {};
  const problems: Record<string, string> = {};
  for (const name of schema["x-order"]) {
    const p = schema.properties[name];
    const v = values[name];
    if (!p || v === undefined) continue;
    if (typeof v === "boolean") inputs[name] = v;
    else if (v.trim() === "") {
      if (rerun) inputs[name] = "";
    } else if (p["x-control"] === "number") inputs[name] = Number(v);
    else if (p["x-control"] === "json") {
      const problem = jsonProblem(v);
      if (problem) problems[name] = problem;
      else inputs[name] = v;
    } else inputs[name] = v;
  }
  return { inputs, problems };
}

/** A refusal's problems by field: the server's errors on inputs, and the inputs it missed. */
export function refusalByField(err: unknown, schema: InputSchema): Record<string, string> {
  const byField: Record<string, string> = {};
  if (!(err instanceof ApiError)) return byField;
  for (const e of err.problem.errors ?? []) {
    const name = e.path.replace(/^inputs\./, "");
    if (schema["x-order"].includes(name)) byField[name] = e.message;
  }
  for (const n of err.problem.missing_inputs ?? [])
    byField[n] ??= `${schema.properties[n]?.title ?? n} is required.`;
  return byField;
}
