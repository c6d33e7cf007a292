/** Whether `value` is one of `list`'s, narrowed to its type (a checked `as`). */
export function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return list.some((item) => item === value);
}
