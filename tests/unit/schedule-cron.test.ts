import { describe, expect, it } from "vitest";
import {
  cronProblem,
  dueTimes,
  isTimeZone,
  nextFireTime,
  nextFireTimes,
} from "@/lib/schedules/cron";

// A schedule's expression and zone as a person writes them, and the times they give.
const at = (iso: string) => new Date(iso);
const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);

describe("a schedule's expression", () => {
  it("is five fields, however they are spaced", () => {
    expect(cronProblem("0 9 * * 1-5")).toBe(null);
    expect(cronProblem("  0   9 * *\t1-5 ")).toBe(null);
    expect(cronProblem("0 9 * *")).toBe(
      "Write five fields separated by spaces: minute hour day-of-month month day-of-week (this has 4).",
    );
    expect(cronProblem("0 0 9 * * 1")).toMatch(/\(this has 6\)\.$/);
    expect(cronProblem("  ")).toMatch(/\(this has 0\)\.$/);
  });

  it("says what croner refuses, without croner's own prefix, and one that never fires", () => {
    expect(cronProblem("61 * * * *")).toBe(
      "Not a cron expression croner reads: Invalid value for minute: 61",
    );
    expect(cronProblem("0 0 30 2 *")).toBe("This expression never fires again.");
  });

  it("is read in a known IANA zone only", () => {
    expect(isTimeZone("Europe/Paris")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("fires at the zone's time, strictly after the time given", () => {
    const noon = "0 12 * * *";
    // Paris is UTC+1 in January, UTC+2 in July.
    expect(nextFireTime(noon, "Europe/Paris", at("2026-01-10T08:00:00Z"))).toEqual(
      at("2026-01-10T11:00:00Z"),
    );
    expect(nextFireTime(noon, "Europe/Paris", at("2026-07-10T10:00:00Z"))).toEqual(
      at("2026-07-11T10:00:00Z"),
    );
    expect(nextFireTimes(noon, "UTC", at("2026-01-10T12:00:00Z"), 2)).toEqual([
      at("2026-01-11T12:00:00Z"),
      at("2026-01-12T12:00:00Z"),
    ]);
    expect(nextFireTime("0 0 30 2 *", "UTC", at("2026-01-01T00:00:00Z"))).toBe(null);
  });
});

describe("due times after a time down", () => {
  it("count `now` itself as due, and the last missed is the latest of them", () => {
    const from = at("2026-03-01T01:00:00Z");
    const due = dueTimes("0 * * * *", "UTC", from, at("2026-03-01T05:00:00Z"), 1);
    expect(due.fire).toEqual([at("2026-03-01T05:00:00Z")]);
    expect(due.missed).toEqual({
      count: 4,
      first: from,
      last: at("2026-03-01T04:00:00Z"),
      atLeast: false,
    });
  });

  // Past 500 due times, the latest are found from now backwards; the two ends may overlap.
  it("do not count as missed a time counted forwards that also fires", () => {
    const from = at("2026-03-01T00:00:00Z");
    const due = dueTimes("* * * * *", "UTC", from, minutes(from, 500), 2); // 501 due
    expect(due.fire).toEqual([minutes(from, 499), minutes(from, 500)]);
    expect(due.missed).toEqual({
      count: 499,
      first: from,
      last: minutes(from, 498),
      atLeast: true,
    });
  });

  it("do not count twice the last counted forwards when it is the one before those that fire", () => {
    const from = at("2026-03-01T00:00:00Z");
    const due = dueTimes("* * * * *", "UTC", from, minutes(from, 501), 2); // 502 due
    expect(due.fire).toEqual([minutes(from, 500), minutes(from, 501)]);
    expect(due.missed).toEqual({
      count: 500,
      first: from,
      last: minutes(from, 499),
      atLeast: true,
    });
  });
});
