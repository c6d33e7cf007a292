import type { z } from "zod";
import { errors, zodFieldErrors } from "@/lib/errors";

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * Parses a request's body or query against its schema. A required field that is absent is a 422
 * that lists what is missing; anything else wrong (not an object, a wrong type, a bad value) is a
 * 400 with every field error — the two answers clients can tell apart.
 */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown, where: "body" | "query"): T {
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
  throw errors.badRequest(
    where === "query" ? "Invalid query parameters." : "The request body is invalid.",
    fieldErrors,
  );
}
