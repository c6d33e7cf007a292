import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { errorMessage } from "@/lib/errors";

// One validator per schema text: a crew's schema is compiled once per process, not per answer.
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** How many times a task is asked again for JSON that matches its schema (3 tries in all). */
export const STRUCTURED_OUTPUT_MAX_RETRIES = 2;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(key, v);
  }
  return v;
}

/** Why a schema cannot be used (checked when the crew is loaded), or undefined. */
export function schemaError(schema: Record<string, unknown>): string | undefined {
  try {
    validatorFor(schema);
    return undefined;
  } catch (err) {
    return `not a usable JSON Schema: ${errorMessage(err)}`;
  }
}

export type StructuredResult =
  | { ok: true; value: unknown; text: string }
  | { ok: false; errors: string[] };

/**
 * The agent's answer as JSON that matches `schema`: the document alone or inside a ```json fence
 * (models add one however they are asked). The stored text is the document, re-serialised.
 */
export function parseStructured(answer: string, schema: Record<string, unknown>): StructuredResult {
  const body = unfence(answer);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    return { ok: false, errors: [`the answer is not JSON: ${errorMessage(err)}`] };
  }
  const validate = validatorFor(schema);
  if (validate(value)) return { ok: true, value, text: JSON.stringify(value, null, 2) };
  return { ok: false, errors: (validate.errors ?? []).map(describeError) };
}

/** What is wrong with `value` by `schema` (empty when it matches). */
export function valueErrors(value: unknown, schema: Record<string, unknown>): string[] {
  const validate = validatorFor(schema);
  return validate(value) ? [] : (validate.errors ?? []).map(describeError);
}

function unfence(answer: string): string {
  const fenced = /```(?:json|JSON)?\s*\n([\s\S]*?)\n?```/.exec(answer);
  if (fenced?.[1] !== undefined) return fenced[1].trim();
  const text = answer.trim();
  // Prose around a bare document: take the outermost object or array.
  const start = text.search(/[{[]/);
  const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
  return start > 0 && end > start ? text.slice(start, end + 1) : text;
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath || "/";
  const extra =
    e.keyword === "additionalProperties"
      ? ` ('${String((e.params as { additionalProperty?: string }).additionalProperty)}')`
      : e.keyword === "enum"
        ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
        : "";
  return `${where} ${e.message ?? "is invalid"}${extra}`;
}
