import { useSyncExternalStore } from "react";

// Approvals wait out an undo window before they are sent: a single key press must never decide
// alone. The window lives outside React so moving to another item (or unmounting) doesn't lose it.
export const UNDO_SECONDS = 5;

const timers = new Map<string, ReturnType<typeof setTimeout>>();
let due: ReadonlyMap<string, number> = new Map();
const listeners = new Set<() => void>();

function set(key: string, at: number | null) {
  const next = new Map(due);
  if (at === null) next.delete(key);
  else next.set(key, at);
  due = next;
  for (const l of listeners) l();
}

/** Runs `send` after the undo window unless `cancelApproval(key)` is called first. */
export function scheduleApproval(key: string, send: () => void) {
  cancelApproval(key);
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key);
      set(key, null);
      send();
    }, UNDO_SECONDS * 1000),
  );
  set(key, Date.now() + UNDO_SECONDS * 1000);
}

/** Takes a scheduled approval back; true when there was one. */
export function cancelApproval(key: string): boolean {
  const t = timers.get(key);
  if (!t) return false;
  clearTimeout(t);
  timers.delete(key);
  set(key, null);
  return true;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** When the approval for `key` will be sent (ms since epoch), or null if none is waiting. */
export function useScheduledApproval(key: string): number | null {
  return useSyncExternalStore(
    subscribe,
    () => due.get(key) ?? null,
    () => null,
  );
}

/** Every key with an approval waiting to be sent. */
export function useScheduledApprovals(): ReadonlyMap<string, number> {
  return useSyncExternalStore(
    subscribe,
    () => due,
    () => due,
  );
}

export const approvalKey = (executionId: string, taskId: string, attempt: number) =>
  `${executionId}:${taskId}:${attempt}`;
