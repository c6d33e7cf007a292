import { Ajv, type CodeOptions, type ErrorObject, type ValidateFunction } from "ajv";
import { errorMessage } from "@/lib/errors";
import { fieldOf } from "@/lib/util/field";
import {
  compileLinear,
  PatternBudgetError,
  withinPatternBudget,
} from "@/lib/util/linear-regex-sync";
import { runnableSchema } from "./schema-patterns";

// Schemas are an operator's (a crew file, an MCP server's tool); the values checked against them
// a caller's (kickoff state, a review response, edited arguments or output) or a model's. So
// `pattern` and `patternProperties` run on RE2, in time linear in the value, never backtracking.
const re2: NonNullable<CodeOptions["regExp"]> = Object.assign(
  (pattern: string, u: string) => {
    const c = compileLinear(pattern, u);
    if (!c.ok) throw new Error(`the pattern '${pattern}' ${c.reason}`);
    // Ajv keys the patterns of a schema by toString(): each must say which it is.
    return { test: c.pattern.test, toString: () => `/${pattern}/${u}` };
  },
  { code: "re2" },
);
const ajv = new Ajv({ allErrors: true, strict: false, code: { regExp: re2 } });

/** How many schemas' validators are kept; the least recently used goes first. */
export const COMPILED_MAX = 500;
// One validator per schema text: a crew's schema is compiled once per process, not per answer.
const compiled = new Map<string, { validate: ValidateFunction; schema: object }>();

/** How many times a task is asked again for JSON that matches its schema (3 tries in all). */
export const STRUCTURED_OUTPUT_MAX_RETRIES = 2;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = compiled.get(key);
  if (hit) {
    compiled.delete(key); // most recently used goes last
    compiled.set(key, hit);
    return hit.validate;
  }
  // Patterns RE2 cannot run are left out (the load warned: schema-patterns.ts).
  const runnable = runnableSchema(schema).schema;
  const validate = ajv.compile(runnable);
  compiled.set(key, { validate, schema: runnable });
  for (const [oldest, entry] of compiled) {
    if (compiled.size <= COMPILED_MAX) break;
    compiled.delete(oldest);
    ajv.removeSchema(entry.schema); // Ajv keeps its own cache of every schema it compiled
  }
  return validate;
}

/** How many schemas have a validator kept (at most COMPILED_MAX). */
export function compiledSchemaCount(): number {
  return compiled.size;
}

/** The validation's errors; a value past the patterns' budget is one, not a crash. */
function check(validate: ValidateFunction, value: unknown): string[] {
  try {
    const valid = withinPatternBudget(() => validate(value));
    return valid ? [] : (validate.errors ?? []).map(describeError);
  } catch (err) {
    if (err instanceof PatternBudgetError) return [err.message];
    throw err;
  }
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
  const errors = check(validatorFor(schema), value);
  if (!errors.length) return { ok: true, value, text: JSON.stringify(value, null, 2) };
  return { ok: false, errors };
}

/** What is wrong with `value` by `schema` (empty when it matches). */
export function valueErrors(value: unknown, schema: Record<string, unknown>): string[] {
  return check(validatorFor(schema), value);
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
      ? ` ('${String(fieldOf(e.params, "additionalProperty"))}')`
      : e.keyword === "enum"
        ? ` (${JSON.stringify(fieldOf(e.params, "allowedValues"))})`
        : "";
  return `${where} ${e.message ?? "is invalid"}${extra}`;
}
