import fs from "node:fs";
import path from "node:path";
import { errorMessage } from "@/lib/errors";

// Crews change on disk while the server runs: watch CREWS_DIR and call back once a burst of
// changes has settled (an editor's save is several events; a `cp -r` is dozens).
//
// Not fs.watch's `recursive`: a CrewAI project folder often holds a .venv of thousands of
// folders, each of which would cost an inotify watch. Crew files sit at most four levels down
// (<slug>/src/<package>/config/), so only those levels are watched, without dot-folders,
// __pycache__ or node_modules; folders that appear are picked up at the next change.

export type CrewWatcher = { close: () => void };

type Options = {
  dir: string;
  onChange: () => void;
  /** Quiet time after the last event before onChange runs. */
  debounceMs?: number;
  log?: (message: string) => void;
};

const MAX_DEPTH = 4;
const skipped = (name: string) =>
  name.startsWith(".") || name === "__pycache__" || name === "node_modules";

/** Never throws: a directory that cannot be watched is logged, and the server runs on. */
export function watchCrews({
  dir,
  onChange,
  debounceMs = 200,
  log = console.error,
}: Options): CrewWatcher {
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (closed) return;
      sync();
      try {
        onChange();
      } catch (err) {
        log(`[crewdeck] reloading crews failed: ${errorMessage(err)}`);
      }
    }, debounceMs);
    timer.unref();
  };

  // Watch every folder of the tree down to MAX_DEPTH; stop watching folders that are gone.
  const sync = () => {
    const wanted = new Set<string>();
    const walk = (folder: string, depth: number) => {
      wanted.add(folder);
      if (depth >= MAX_DEPTH) return;
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(folder, { withFileTypes: true });
      } catch {
        return; // removed meanwhile: its watcher goes below
      }
      for (const e of entries) {
        if (e.isDirectory() && !skipped(e.name)) walk(path.join(folder, e.name), depth + 1);
      }
    };
    walk(dir, 0);
    for (const [folder, watcher] of watchers) {
      if (!wanted.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = fs.watch(folder, { persistent: false }, settle);
        // A folder removed under its watcher ends it; the next sync notices.
        watcher.on("error", () => {
          watcher.close();
          watchers.delete(folder);
          settle();
        });
        watchers.set(folder, watcher);
      } catch (err) {
        if (folder === dir)
          log(`[crewdeck] cannot watch ${dir} for crew changes: ${errorMessage(err)}`);
      }
    }
  };

  sync();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
