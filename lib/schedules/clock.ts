import { readFileSync } from "node:fs";
import { env } from "@/lib/config/env";

/**
 * The scheduler's time: the machine's, or (tests) the instant written in `clockFile`, so a test
 * moves time across due times and daylight-saving changes without waiting. A file caught half
 * rewritten (empty, unreadable) is the last instant read from it: falling back to the machine's
 * time there fired a real day's due time in a test. Never read: the machine's time.
 */
export function schedulerClock(clockFile?: string): () => Date {
  if (!clockFile) return () => new Date();
  let last: Date | undefined;
  return () => {
    try {
      const at = new Date(readFileSync(clockFile, "utf8").trim());
      if (!Number.isNaN(at.getTime())) last = at;
    } catch {
      // Being replaced: the last instant stands.
    }
    return last ?? new Date();
  };
}

/** The time schedules are due by, in every process (web and workers alike). */
let shared: { file?: string; clock: () => Date } | undefined;
export const scheduleNow = () => {
  const file = env().SCHEDULER_CLOCK_FILE;
  if (!shared || shared.file !== file) shared = { file, clock: schedulerClock(file) };
  return shared.clock();
};
