import { type OutputUnit, type Schema, Validator } from "@cfworker/json-schema";

// Edited tool-call arguments checked against the tool's own parameters as the reviewer types, in
// the browser (an interpreter: the dashboard's CSP allows no eval, which Ajv compiles with). The
// server checks again on approval; this only says it sooner.

const validators = new Map<string, Validator | null>();

function validatorFor(schema: Record<string, unknown>): Validator | null {
  const key = JSON.stringify(schema);
  if (!validators.has(key)) {
    const declared = typeof schema.$schema === "string" ? schema.$schema : "";
    const draft = /2020-12/.test(declared) ? "2020-12" : /2019-09/.test(declared) ? "2019-09" : "7";
    try {
      validators.set(key, new Validator(schema as Schema, draft, false));
    } catch {
      validators.set(key, null); // a schema this cannot read: the server's check stands alone
    }
  }
  return validators.get(key) ?? null;
}

const where = (unit: OutputUnit) => unit.instanceLocation.replace(/^#\/?/, "").replace(/\//g, ".");

function sentence(unit: OutputUnit): string | null {
  const at = where(unit);
  switch (unit.keyword) {
    case "required": {
      const name = /"([^"]+)"/.exec(unit.error)?.[1];
      return name ? `“${at ? `${at}.` : ""}${name}” is required.` : unit.error;
    }
    case "additionalProperties": {
      const name = /"([^"]+)"/.exec(unit.error)?.[1];
      return name ? `“${name}” is not a parameter of this tool.` : unit.error;
    }
    // Summaries of the errors inside, and the `false` schema that additionalProperties reports.
    case "properties":
    case "items":
    case "prefixItems":
    case "false":
    case "$ref":
    case "allOf":
      return null;
    default:
      return at ? `“${at}”: ${unit.error}` : unit.error;
  }
}

/** What is wrong with `value` as the arguments of a tool with `schema`, one sentence each. */
export function argumentProblems(value: unknown, schema: Record<string, unknown>): string[] {
  const validator = validatorFor(schema);
  if (!validator) return [];
  let result: ReturnType<Validator["validate"]>;
  try {
    result = validator.validate(value);
  } catch {
    return []; // a reference it cannot follow: the server's check stands alone
  }
  if (result.valid) return [];
  const said = result.errors.map(sentence).filter((s): s is string => s !== null);
  return [...new Set(said)];
}
