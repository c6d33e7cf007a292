/** `value[name]` when `value` is an object (JSON read as unknown), else undefined. */
export function fieldOf(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, name) : undefined;
}
