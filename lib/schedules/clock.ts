import { readFileSync } from "node:fs";
import { env } from "@/lib/config/env";

/**
 * The scheduler's time: the machine's, or (tests) the instant written in `clockFile`, so a test
 * moves time across due times and daylight-saving changes without waiting. An unreadable file is
 * the machine's time.
 */
export function schedulerClock(clockFile?: string): () => Date {
  if (!clockFile) return () => new Date();
  return () => {
    try {
      const at = new Date(readFileSync(clockFile, "utf8").trim());
      return Number.isNaN(at.getTime()) ? new Date() : at;
    } catch {
      return new Date();
    }
  };
}

/** The time schedules are due by, in every process (web and workers alike). */
export const scheduleNow = () => schedulerClock(env().SCHEDULER_CLOCK_FILE)();
