import { fieldOf } from "@/lib/util/field";
/**
 * JSON with object keys in sorted order at every depth, so the same value always serialises to
 * the same bytes: a hash over it does not depend on the order a database (jsonb) or a program
 * happens to keep keys in. `undefined` members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    // Non-finite numbers have no JSON form; JSON.stringify writes null for them, and so do we.
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  }
  const members = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const v = fieldOf(value, key);
      return v === undefined ? [] : [`${JSON.stringify(key)}:${canonicalJson(v)}`];
    });
  return `{${members.join(",")}}`;
}
