import { Cron } from "croner";

// Schedules are five-field cron expressions (minute hour day-of-month month day-of-week) read by
// croner in a named IANA time zone. Daylight saving, as croner documents it (Vixie cron's rule):
// a fixed-time job ("30 2 * * *") whose time falls in a spring-forward gap runs at the first valid
// time after the gap, that day; one whose time occurs twice (fall back) runs once, at the first.
// An interval job ("*/30 * * * *") skips the times that do not exist and runs at both of the
// repeated ones. Day-of-month and day-of-week are OR-ed, as in Vixie cron.

/**
 * At most this many due times are worked out forwards (a minute's schedule down for 8 hours);
 * each costs croner a step on the worker's event loop, and 100 schedules may be catching up.
 */
const MAX_DUE = 500;

function cronOf(expression: string, timezone: string) {
  return new Cron(expression, { timezone, paused: true, mode: "5-part" });
}

/** Whether `timezone` is an IANA zone name this runtime knows. */
export function isTimeZone(timezone: string) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return timezone.length > 0;
  } catch {
    return false;
  }
}

/** Why the expression cannot be used, in one sentence; null when it can. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    return `Write five fields separated by spaces: minute hour day-of-month month day-of-week (this has ${fields.length}).`;
  try {
    const cron = cronOf(expression, "UTC");
    if (!cron.nextRun(new Date())) return "This expression never fires again.";
    return null;
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).replace(/^\w+: /, "");
    return `Not a cron expression croner reads: ${message}`;
  }
}

/** The next `n` fire times strictly after `after`. */
export function nextFireTimes(expression: string, timezone: string, after: Date, n: number) {
  return cronOf(expression, timezone).nextRuns(n, after);
}

/** The fire time strictly after `after` (null: none, e.g. a date that has passed for good). */
export function nextFireTime(expression: string, timezone: string, after: Date): Date | null {
  return cronOf(expression, timezone).nextRun(after);
}

export type DueTimes = {
  /** The latest `keep` due times, oldest first: these fire. */
  fire: Date[];
  /** The due times before them, which do not (counted up to MAX_DUE, then "at least"). */
  missed: { count: number; first: Date | null; last: Date | null; atLeast: boolean };
};

/** The fire times from `from` (inclusive) up to `now` (inclusive): the last `keep` fire. */
export function dueTimes(
  expression: string,
  timezone: string,
  from: Date,
  now: Date,
  keep: number,
): DueTimes {
  const cron = cronOf(expression, timezone);
  const due: Date[] = [];
  let at: Date | null = new Date(from.getTime() - 1);
  for (;;) {
    at = cron.nextRun(at);
    if (!at || at.getTime() > now.getTime()) break;
    due.push(at);
    if (due.length >= MAX_DUE) return longDown(cron, due, now, keep);
  }
  const missed = due.slice(0, Math.max(0, due.length - keep));
  return {
    fire: due.slice(missed.length),
    missed: {
      count: missed.length,
      first: missed[0] ?? null,
      last: missed.at(-1) ?? null,
      atLeast: false,
    },
  };
}

/**
 * Down for long: the latest `keep` due times are found from now, backwards, and the one before
 * them is the last missed. Those counted forwards are missed too; any between are not counted.
 */
function longDown(cron: Cron, counted: Date[], now: Date, keep: number): DueTimes {
  const latest = cron.previousRuns(keep + 1, new Date(now.getTime() + 1)).reverse();
  const fire = latest.slice(-keep);
  const firstFire = fire[0]?.getTime() ?? Number.POSITIVE_INFINITY;
  const missed = counted.filter((d) => d.getTime() < firstFire);
  const lastCounted = counted.at(-1)?.getTime() ?? 0;
  const before = latest.length > keep ? latest[0] : undefined;
  const beyond = before && before.getTime() > lastCounted ? before : undefined;
  return {
    fire,
    missed: {
      count: missed.length + (beyond ? 1 : 0),
      first: missed[0] ?? null,
      last: beyond ?? missed.at(-1) ?? null,
      atLeast: true,
    },
  };
}
