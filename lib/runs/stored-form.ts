// A JSON column's value in the form the database gives back, made without a round trip: what the
// worker's writer (./execution-writer.ts) goes on from after a write.

/**
 * Objects asStored has given back, known to be in stored form. A change copies what it changes and
 * shares the rest (one task of a run's list, say), so the parts it shares need no walk again: each
 * step changes the run's tasks, and walking every task's state each time was most of the writer's
 * work. Rows are never changed in place, so an object stays in stored form once it is.
 */
const storedForm = new WeakSet<object>();

/**
 * A JSON column's value as the database gives it back — no undefined members, dates as ISO
 * strings — sharing every part that is already so (a run's outputs are not copied per step).
 */
export function asStored(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (storedForm.has(value)) return value;
  const stored = storedCopy(value);
  if (typeof stored === "object" && stored !== null) storedForm.add(stored);
  return stored;
}

function storedCopy(value: object): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const stored = item === undefined ? null : asStored(item);
      if (stored === item) return;
      copy ??= [...value];
      copy[i] = stored;
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) {
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    const stored = asStored(item);
    if (stored === item) continue;
    copy ??= { ...value };
    copy[key] = stored;
  }
  return copy ?? value;
}
