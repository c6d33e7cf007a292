import { z } from "zod";
import { time } from "@/lib/db/columns";
import type { Db } from "@/lib/db/types";
import { errorMessage } from "@/lib/errors";
import { createNapper, napLoop } from "@/lib/util/napper";
import { fireDueSchedules } from "./fire";

/**
 * Fires due schedules (lib/schedules/fire.ts) in every worker process: it sleeps until the next
 * due time it knows, wakes when a schedule is created or changed anywhere (NOTIFY), and looks
 * again at least every `pollMs`.
 */
export function startScheduler({
  db,
  pollMs,
  now,
  log = console.log,
}: {
  db: Db;
  pollMs: number;
  now: () => Date;
  log?: (msg: string) => void;
}) {
  const napper = createNapper();
  db.listen("crewdeck_schedules", () => napper.wake()).catch((err) =>
    log(`[scheduler] LISTEN failed: ${errorMessage(err)}`),
  );
  return napLoop(napper, async () => {
    try {
      const at = now();
      await fireDueSchedules(db, at, log);
      const { rows } = await db.query(
        "SELECT min(next_due_at) AS next FROM schedules WHERE NOT paused",
        [],
        z.object({ next: time.nullable() }),
      );
      const next = rows[0]?.next;
      // Wake just after the next due time (timers may fire a little early).
      if (next) return Math.min(pollMs, Math.max(20, next.getTime() - now().getTime() + 5));
    } catch (err) {
      log(`[scheduler] ${errorMessage(err)}`);
    }
    return pollMs;
  });
}
