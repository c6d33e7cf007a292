/** How long an idle loop naps at most, whatever its base interval below that. */
export const IDLE_NAP_MAX_MS = 2_000;
/** The furthest ahead `wakeIn` keeps a timer for. */
export const WAKE_IN_MAX_MS = 30_000;

/**
 * A sleep that `wake()` cuts short, for worker loops that poll but also react to NOTIFY. A wake
 * that comes while the loop is busy is kept, so the next nap returns at once and no nudge is lost.
 * `wakeIn(ms)` wakes it later: for work this process scheduled itself (a retry, a next poll).
 */
export function createNapper() {
  let pending = false;
  let cut: (() => void) | undefined;
  const wake = () => {
    if (cut) cut();
    else pending = true;
  };
  return {
    nap(ms: number): Promise<void> {
      if (pending) {
        pending = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          cut = undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        cut = done;
      });
    },
    wake,
    wakeIn(ms: number) {
      // An idle loop is at most IDLE_NAP_MAX_MS late for what nobody wakes it for: that matters
      // for a poll due in 2 s, not for a retry due in hours, which would hold a timer meanwhile.
      if (ms <= WAKE_IN_MAX_MS) setTimeout(wake, ms).unref();
    },
  };
}

/**
 * The naps of a polling loop: `baseMs` after a round that found work, doubling for each round
 * that found none, up to `maxMs`. New work is announced (NOTIFY, or a wake from this process), so
 * an idle loop need not ask the database ten times a second: that was most of an idle server's
 * CPU on the embedded database. The cap bounds how late it notices what nobody announces: a
 * crashed process's lease running out, a notification lost while the listener reconnected.
 */
export function idleBackoff(baseMs: number, maxMs = IDLE_NAP_MAX_MS) {
  const cap = Math.max(baseMs, maxMs);
  let next = baseMs;
  return {
    /** The nap after a round: `found` says whether it found work. */
    after(found: boolean) {
      if (found) next = baseMs;
      const ms = next;
      if (!found) next = Math.min(next * 2, cap);
      return ms;
    },
  };
}

export type Napper = ReturnType<typeof createNapper>;

/**
 * A worker loop: `round` again and again, napping after each for the ms it returns, until
 * `stop()`, which cuts the nap short and resolves once the round under way has ended. A round
 * catches its own errors; `stopping` lets a long one end early.
 */
export function napLoop(napper: Napper, round: (stopping: () => boolean) => Promise<number>) {
  let stopping = false;
  const isStopping = () => stopping;
  const loop = (async () => {
    while (!stopping) {
      const ms = await round(isStopping);
      // A wake spent cutting a round's own nap short must not leave this one to run its course.
      if (!stopping) await napper.nap(ms);
    }
  })();
  return {
    async stop() {
      stopping = true;
      napper.wake();
      await loop;
    },
  };
}
