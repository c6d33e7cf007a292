import { isRecord } from "@/lib/util/field";

// A JSON document that matches a JSON Schema, built from the task: the offline model's answer
// when a task asks for structured output. Deterministic; covers the common keywords.

type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

export function sampleFor(schema: unknown, hint: string, key?: string, depth = 0): unknown {
  const s: Schema = isRecord(schema) ? schema : {};
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  for (const k of ["anyOf", "oneOf"]) {
    const options = s[k];
    if (Array.isArray(options) && options.length) return sampleFor(options[0], hint, key, depth);
  }
  if (Array.isArray(s.allOf) && s.allOf.length)
    return sampleFor(Object.assign({}, ...s.allOf), hint, key, depth);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const type =
    types.find((t) => typeof t === "string" && t !== "null") ??
    (s.properties ? "object" : s.items ? "array" : "string");
  if (depth > MAX_DEPTH) return null;
  switch (type) {
    case "object": {
      const props = isRecord(s.properties) ? s.properties : {};
      return Object.fromEntries(
        Object.entries(props).map(([k, v]) => [k, sampleFor(v, hint, k, depth + 1)]),
      );
    }
    case "array": {
      const n = Math.max(typeof s.minItems === "number" ? s.minItems : 1, 1);
      const max = typeof s.maxItems === "number" ? s.maxItems : n;
      return Array.from({ length: Math.min(n, max) }, (_, i) =>
        sampleFor(s.items, hint, key ? `${key} ${i + 1}` : undefined, depth + 1),
      );
    }
    case "integer":
    case "number": {
      const min = typeof s.minimum === "number" ? s.minimum : undefined;
      const xmin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : undefined;
      const n = min ?? xmin ?? 1;
      return type === "integer" ? Math.ceil(n) : n;
    }
    case "boolean":
      return true;
    default:
      return stringFor(s, hint, key);
  }
}

function stringFor(s: Schema, hint: string, key?: string): string {
  if (s.format === "date") return "2026-01-01";
  if (s.format === "date-time") return "2026-01-01T00:00:00Z";
  if (s.format === "email") return "offline@example.com";
  if (s.format === "uri" || s.format === "url") return "https://example.com/";
  let text = key ? `${key.replace(/[_-]+/g, " ")}: ${hint}` : hint;
  const max = typeof s.maxLength === "number" ? s.maxLength : undefined;
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  if (max !== undefined) text = text.slice(0, max);
  return text.padEnd(min, ".");
}
