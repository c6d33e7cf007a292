import { compileLinear } from "@/lib/util/linear-regex-sync";

// A JSON Schema's `pattern` and `patternProperties` run on RE2 (lib/util/linear-regex-sync.ts),
// which has no lookaround or backreference. A crew is never refused for one: the pattern RE2
// cannot run is left out — that keyword goes unchecked, the rest of the schema still holds — and
// the load warns, naming where it sits. Leaving it out, not failing every value, keeps a crew
// written for Python's `re` usable; the warning says what is not enforced.

export type SkippedPattern = { at: string; reason: string };

// Keywords whose values are data, not schemas: a "pattern" key inside them is not a keyword.
const DATA = new Set(["enum", "const", "default", "examples"]);
// Keywords whose values map names to schemas (a property may be called "pattern" or "enum").
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "dependentSchemas"]);

const pointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The schema without the patterns RE2 cannot run, and where each was (a JSON Pointer). */
export function runnableSchema(schema: Record<string, unknown>): {
  schema: Record<string, unknown>;
  skipped: SkippedPattern[];
} {
  const skipped: SkippedPattern[] = [];
  return { schema: walkSchema(schema, "", skipped), skipped };
}

/** One sentence per pattern left out, for a load warning. */
export function skippedPatternWarnings(schema: Record<string, unknown>): string[] {
  return runnableSchema(schema).skipped.map(
    (s) => `the pattern at ${s.at || "/"} ${s.reason}: it is not checked`,
  );
}

function walk(value: unknown, at: string, skipped: SkippedPattern[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => walk(v, `${at}/${i}`, skipped));
  return isObject(value) ? walkSchema(value, at, skipped) : value;
}

// Built with Object.fromEntries: a property named "__proto__" stays a property.
function walkSchema(
  schema: Record<string, unknown>,
  at: string,
  skipped: SkippedPattern[],
): Record<string, unknown> {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}/${pointer(key)}`;
    if (key === "pattern" && typeof value === "string") {
      const c = compileLinear(value);
      if (c.ok) out.push([key, value]);
      else skipped.push({ at: here, reason: c.reason });
    } else if (key === "patternProperties" && isObject(value)) {
      out.push([key, patternMap(value, here, skipped)]);
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map = Object.entries(value).map(([k, v]) => [
        k,
        walk(v, `${here}/${pointer(k)}`, skipped),
      ]);
      out.push([key, Object.fromEntries(map)]);
    } else out.push([key, DATA.has(key) ? value : walk(value, here, skipped)]);
  }
  return Object.fromEntries(out);
}

function patternMap(map: Record<string, unknown>, at: string, skipped: SkippedPattern[]) {
  const out: [string, unknown][] = [];
  for (const [pattern, sub] of Object.entries(map)) {
    const here = `${at}/${pointer(pattern)}`;
    const c = compileLinear(pattern);
    if (c.ok) out.push([pattern, walk(sub, here, skipped)]);
    else skipped.push({ at: here, reason: c.reason });
  }
  return Object.fromEntries(out);
}
