// CEL tells integers from doubles, JSON does not: a whole number goes in as an int (as celpy's
// json_to_cel reads a JSON integer), so `state.limit + 1` and `string(payload.number)` work as
// they read; ints come back as numbers.

// What toCel made is returned as it is when handed to it again: a flow's `each` converts the
// state and the outputs once and evaluates every item's expressions over them, which must not
// cost the whole state again per item. (Nothing changes a converted value in place.)
const made = new WeakSet<object>();

/** A JSON value as CEL reads it. */
export function toCel(value: unknown): unknown {
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (!value || typeof value !== "object" || made.has(value)) return value;
  const out = Array.isArray(value)
    ? value.map(toCel)
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  made.add(out);
  return out;
}

/** A CEL result as JSON: ints as numbers, maps as objects, bytes as base64. */
export function fromCel(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([k, v]) => [String(k), fromCel(v)]));
  if (value instanceof Set) return [...value].map(fromCel);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCel(v)]));
  return value;
}
