import { type Schema, zodSchema } from "ai";
import type { z } from "zod";

const made = new WeakMap<z.ZodType, Schema>();

/**
 * A tool's input schema as the AI SDK takes it, made once per schema. Given a bare zod schema,
 * the SDK converts it to JSON Schema again at every step of every task; this form keeps the
 * conversion. (The schema itself must be made once, at module level, for this to help.)
 */
export function toolSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const out = made.get(schema);
  // The map was filled from this very schema, so its entry is a Schema<T>.
  if (out) return out as Schema<T>;
  const fresh = zodSchema(schema);
  made.set(schema, fresh);
  return fresh;
}
