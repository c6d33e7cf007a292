import type { Db } from "@/lib/db/types";

/**
 * Recently read execution rows, for /status polling. Every state change NOTIFYs
 * `crewdeck_exec` with the execution id in its transaction (see execution-store.ts), and each
 * process drops that entry when the notification arrives — from whichever process wrote it.
 * While notifications could be missed (LISTEN connection down) nothing is cached. Concurrent
 * misses for one id share one query.
 */
const MAX_ENTRIES = 10_000;
const TTL_MS = 60_000; // a backstop only; invalidation is what keeps entries fresh

type Inflight<T> = { promise: Promise<T | undefined>; stale: boolean };
type Cache = {
  entries: Map<string, { row: unknown; expires: number }>;
  inflight: Map<string, Inflight<unknown>>;
  listening: boolean;
  started?: Promise<void>;
};

declare global {
  var __crewdeckExecCache: Cache | undefined;
}
const slot = globalThis;
slot.__crewdeckExecCache ??= { entries: new Map(), inflight: new Map(), listening: false };
const cache = slot.__crewdeckExecCache;

export const EXECUTION_CHANNEL = "crewdeck_exec";

export function invalidateExecution(id: string) {
  cache.entries.delete(id);
  const pending = cache.inflight.get(id);
  if (pending) {
    pending.stale = true;
    cache.inflight.delete(id);
  }
}

function startListening(db: Db) {
  cache.started ??= db.listen(EXECUTION_CHANNEL, invalidateExecution, (listening) => {
    cache.listening = listening;
    cache.entries.clear();
  });
  return cache.started;
}

export async function cachedExecution<T>(
  db: Db,
  id: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  await startListening(db);
  if (!cache.listening) return load();
  const hit = cache.entries.get(id);
  if (hit && hit.expires > Date.now()) return hit.row as T;
  const running = cache.inflight.get(id);
  if (running) return running.promise as Promise<T | undefined>;

  const entry: Inflight<T> = { stale: false, promise: Promise.resolve(undefined) };
  entry.promise = load().then(
    (row) => {
      if (cache.inflight.get(id) === entry) cache.inflight.delete(id);
      if (row !== undefined && !entry.stale && cache.listening) {
        if (cache.entries.size >= MAX_ENTRIES)
          for (const oldest of cache.entries.keys()) {
            cache.entries.delete(oldest);
            break;
          }
        cache.entries.set(id, { row, expires: Date.now() + TTL_MS });
      }
      return row;
    },
    (err) => {
      if (cache.inflight.get(id) === entry) cache.inflight.delete(id);
      throw err;
    },
  );
  cache.inflight.set(id, entry as Inflight<unknown>);
  return entry.promise;
}
