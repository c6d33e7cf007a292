import fs from "node:fs";

// Crews change on disk while the server runs: watch CREWS_DIR and call back once a burst of
// changes has settled (an editor's save is several events; a `cp -r` is dozens).

export type CrewWatcher = { close: () => void };

type Options = {
  dir: string;
  onChange: () => void;
  /** Quiet time after the last event before onChange runs. */
  debounceMs?: number;
  log?: (message: string) => void;
};

/** Never throws: a directory that cannot be watched is logged, and the server runs on. */
export function watchCrews({
  dir,
  onChange,
  debounceMs = 200,
  log = console.error,
}: Options): CrewWatcher {
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      try {
        onChange();
      } catch (err) {
        log(`[crewdeck] reloading crews failed: ${(err as Error).message}`);
      }
    }, debounceMs);
    timer.unref();
  };
  try {
    // Recursive: crews are folders (config/, agents/, src/<package>/); Node 20 does it on Linux.
    watcher = fs.watch(dir, { recursive: true, persistent: false }, settle);
    watcher.on("error", (err) => {
      log(`[crewdeck] stopped watching ${dir} for crew changes: ${err.message}`);
      watcher?.close();
    });
  } catch (err) {
    log(`[crewdeck] cannot watch ${dir} for crew changes: ${(err as Error).message}`);
  }
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
