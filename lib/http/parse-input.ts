import type { z } from "zod";
import { errors, zodFieldErrors } from "@/lib/errors";
import { fieldOf } from "@/lib/util/field";

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = fieldOf(v, key);
  }
  return v;
}

/**
 * Whether an issue says the body is not the shape asked for (a wrong type, an unknown key), as
 * opposed to a well-typed value that breaks a rule (too short, not a URL, not one of the choices).
 * A union is wrong in shape when one of its branches is; a choice when the value's type is none of
 * the choices' types ({"role": 5}).
 */
function isShapeIssue(issue: z.core.$ZodIssue, input: unknown, base: PropertyKey[] = []): boolean {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_type") return valueAt(input, path) !== undefined;
  // Not one of the choices: a wrong type when the value is not even of the choices' type.
  if (issue.code === "invalid_value") {
    const value = valueAt(input, path);
    return value !== undefined && !issue.values.some((v) => typeof v === typeof value);
  }
  if (issue.code === "invalid_union")
    return issue.errors.some((branch) => branch.some((i) => isShapeIssue(i, input, path)));
  return issue.code === "unrecognized_keys" || issue.code === "invalid_key";
}

/**
 * Parses a request's body or query against its schema. A required field that is absent is a 422
 * that lists what is missing; a wrong type (or not an object) is a 400 with every field error —
 * the two answers clients can tell apart. A well-typed value that breaks a rule is a 400 too,
 * unless the route says `invalid: 422` (the settings routes always answered those 422).
 */
export function parseInput<T>(
  schema: z.ZodType<T>,
  input: unknown,
  where: "body" | "query",
  invalid: 400 | 422 = 400,
): T {
  if (where === "body" && (input === null || typeof input !== "object" || Array.isArray(input))) {
    throw errors.badRequest("The request body must be a JSON object.");
  }
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fieldErrors = zodFieldErrors(parsed.error);
  const missing = parsed.error.issues
    .filter((i) => i.code === "invalid_type" && valueAt(input, i.path) === undefined)
    .map((i) => i.path.map(String).join("."));
  if (where === "body" && missing.length === parsed.error.issues.length) {
    throw errors.unprocessable(`Missing required fields: ${missing.join(", ")}.`, {
      missing_fields: missing,
      errors: fieldErrors,
    });
  }
  const valuesOnly = !parsed.error.issues.some((i) => isShapeIssue(i, input));
  if (where === "body" && invalid === 422 && valuesOnly)
    throw errors.unprocessable("The request body is invalid.", { errors: fieldErrors });
  throw errors.badRequest(
    where === "query" ? "Invalid query parameters." : "The request body is invalid.",
    fieldErrors,
  );
}
