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

/** A small whole-number range (a rating: at most 11 choices) as its choices; else null. */
export function ratingChoices(p: Property): number[] | null {
  const { minimum: min, maximum: max } = p;
  if (typeOf(p) !== "integer" || min === undefined || max === undefined || max - min > 10)
    return null;
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

/** Which control a property gets: a select for an enum, a number box, a text area or a line. */
export function controlOf(p: Property): "enum" | "number" | "textarea" | "text" {
  const type = typeOf(p);
  if (p.enum) return "enum";
  if (type === "integer" || type === "number") return "number";
  return (p.maxLength ?? 1000) > 120 ? "textarea" : "text";
}

/** The enum value a select's text stands for ("" is no answer). */
export const enumValue = (p: Property, text: string) =>
  p.enum?.find((v) => String(v) === text) ?? (text || undefined);
