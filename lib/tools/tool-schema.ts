import { type Schema, zodSchema } from "ai";
import type { z } from "zod";

const made = new WeakMap<z.ZodType, Schema>();

/**
 * A tool's input schema as the AI SDK takes it, made once per schema. Given a bare zod schema,
 * the SDK converts it to JSON Schema again at every step of every task; this form keeps the
 * conversion. (The schema itself must be made once, at module level, for this to help.)
 */
export function toolSchema<T>(schema: z.ZodType<T>): Schema<T> {
  let out = made.get(schema);
  if (!out) {
    out = zodSchema(schema) as Schema;
    made.set(schema, out);
  }
  return out as Schema<T>;
}
