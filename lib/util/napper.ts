/**
 * A sleep that `wake()` cuts short, for worker loops that poll but also react to NOTIFY. A wake
 * that comes while the loop is busy is kept, so the next nap returns at once and no nudge is lost.
 */
export function createNapper() {
  let pending = false;
  let cut: (() => void) | undefined;
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
    wake() {
      if (cut) cut();
      else pending = true;
    },
  };
}
