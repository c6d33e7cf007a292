// What a task's review.response_schema asks, read for the form and for checking it before sending.

export type Property = {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};
export type ResponseValues = Record<string, unknown>;

// The crew snapshot is stored as jsonb, which keeps no key order: required answers come first.
export const propertiesOf = (schema: Record<string, unknown>) => {
  const required = requiredOf(schema);
  return Object.entries((schema.properties ?? {}) as Record<string, Property>).sort(
    ([a], [b]) => Number(required.has(b)) - Number(required.has(a)),
  );
};
export const requiredOf = (schema: Record<string, unknown>) =>
  new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
export const typeOf = (p: Property) => (Array.isArray(p.type) ? p.type[0] : p.type) ?? "string";

/** What is missing from the form, by the schema's `required` (the server checks the rest). */
export function missingAnswers(schema: Record<string, unknown>, values: ResponseValues) {
  return propertiesOf(schema)
    .filter(([name]) => requiredOf(schema).has(name))
    .filter(([name]) => values[name] === undefined || values[name] === "")
    .map(([name, p]) => p.title ?? name);
}
