import { coerceInput } from "./coerce-input";
import { type InputScalar, type InputSpec, undeclaredInput } from "./input-schema";
import type { CrewDef } from "./schema";

// Kickoff's inputs checked against the crew's inputs. Inputs only named by a `{placeholder}`
// behave as on CrewAI: any value, required; a list or an object is interpolated as its JSON.

type InputFieldError = { path: string; message: string };

export type CheckedInputs = {
  values: Record<string, InputScalar>; // the crew's inputs, in its order
  missing: string[]; // required, and absent, null or ""
  invalid: InputFieldError[]; // present but not of the input's type
  malformed: InputFieldError[]; // an object or list given to a declared input that is not json (400)
};

/** The crew's inputs in order, typed where its YAML declares them. */
export function inputSpecsOf(crew: Pick<CrewDef, "inputs" | "input_specs">): InputSpec[] {
  return crew.input_specs ?? crew.inputs.map(undeclaredInput);
}

const isAbsent = (v: unknown) => v === undefined || v === null || v === "";
const isScalar = (v: unknown): v is InputScalar =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

export function checkInputs(specs: InputSpec[], given: Record<string, unknown>): CheckedInputs {
  const out: CheckedInputs = { values: {}, missing: [], invalid: [], malformed: [] };
  const byName = new Map(specs.map((s) => [s.name, s]));
  for (const [name, v] of Object.entries(given)) {
    const spec = byName.get(name);
    if (typeof v === "object" && v !== null && spec?.declared && spec.type !== "json")
      out.malformed.push({
        path: `inputs.${name}`,
        message: "input values must be a string, a number or a boolean",
      });
  }
  for (const spec of specs) {
    const raw = Object.hasOwn(given, spec.name) ? given[spec.name] : undefined;
    if (isAbsent(raw)) {
      if (spec.default !== undefined) out.values[spec.name] = spec.default;
      else if (spec.required) out.missing.push(spec.name);
      else out.values[spec.name] = spec.type === "boolean" ? false : "";
      continue;
    }
    if (!spec.declared) {
      // CrewAI's contract for bare placeholders: the value as given; a list or an object as its
      // compact JSON (stored as text, so /status inputs stay plain values).
      out.values[spec.name] = isScalar(raw) ? raw : JSON.stringify(raw);
      continue;
    }
    if (typeof raw === "object" && spec.type !== "json") continue; // already malformed
    const res = coerceInput(spec, raw);
    if (res.ok) out.values[spec.name] = res.value;
    else out.invalid.push({ path: `inputs.${spec.name}`, message: res.message });
  }
  return out;
}
