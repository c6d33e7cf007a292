/** `value[name]` when `value` is an object (JSON read as unknown), else undefined. */
export function fieldOf(value: unknown, name: PropertyKey): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, name) : undefined;
}

/** The entries of `value` when it is an object (a parsed YAML or JSON document), else none. */
export function entriesOf(value: unknown): [string, unknown][] {
  return typeof value === "object" && value !== null ? Object.entries(value) : [];
}

/** Whether `value` is an object whose fields can be read by name (JSON or YAML read as unknown). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
