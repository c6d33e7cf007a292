import { vi } from "vitest";

// The unit tests share their worker processes (isolate: false in vitest.config.ts): a process per
// file cost each one Node's start and every package's import again. What a file could leave
// behind for the next is undone here, before each file: the project's modules are evaluated
// afresh (packages stay loaded), and the environment and globals are as the worker began.
type Baseline = { env: Record<string, string | undefined>; globals: Set<string | symbol> };
const SLOT = Symbol.for("crewdeck.tests.baseline");
const store = globalThis as { [SLOT]?: Baseline };
// Taken before the worker's first file; the baseline itself is one of the globals kept.
store[SLOT] ??= {
  env: { ...process.env },
  globals: new Set([...Reflect.ownKeys(globalThis), SLOT]),
};
const baseline = store[SLOT];

for (const key of Object.keys(process.env)) if (!(key in baseline.env)) delete process.env[key];
Object.assign(process.env, baseline.env);
for (const key of Reflect.ownKeys(globalThis))
  if (!baseline.globals.has(key)) Reflect.deleteProperty(globalThis, key);
vi.resetModules();
vi.useRealTimers();
