/**
 * One value per process under `key`, made by the first caller. Next.js loads the route handlers
 * and instrumentation.ts as separate bundles, each with its own copy of a module: what must be
 * one per process lives on globalThis instead.
 */
export function processGlobal<T>(key: symbol, make: () => T): T {
  if (Reflect.get(globalThis, key) == null) Reflect.set(globalThis, key, make());
  // Only this function writes the slot, and each key is given one `make` (its module's).
  return Reflect.get(globalThis, key) as T;
}
