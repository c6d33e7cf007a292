import { Cron } from "croner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dueTimes } from "@/lib/schedules/cron";

// A schedule's catch-up after downtime runs on the worker's event loop: each due time worked out
// forward costs a croner step, so the count is bounded and the latest times are found from now.
const minute = (iso: string) => new Date(`${iso}:00.000Z`);

afterEach(() => vi.restoreAllMocks());

describe("dueTimes", () => {
  it("a short outage: every due time, the latest `keep` fire and the rest are missed", () => {
    const due = dueTimes(
      "0 * * * *",
      "UTC",
      minute("2026-03-01T01:00"),
      minute("2026-03-01T04:30"),
      2,
    );
    expect(due.fire).toEqual([minute("2026-03-01T03:00"), minute("2026-03-01T04:00")]);
    expect(due.missed).toEqual({
      count: 2,
      first: minute("2026-03-01T01:00"),
      last: minute("2026-03-01T02:00"),
      atLeast: false,
    });
  });

  it("a minute's schedule down 14 days: at most 500 steps forward, the latest found from now", () => {
    const steps = vi.spyOn(Cron.prototype, "nextRun");
    const from = minute("2026-03-01T00:00");
    const now = minute("2026-03-15T00:00"); // 20,161 due times
    const due = dueTimes("* * * * *", "UTC", from, now, 3);
    expect(steps.mock.calls.length).toBeLessThanOrEqual(501);
    expect(due.fire).toEqual([minute("2026-03-14T23:58"), minute("2026-03-14T23:59"), now]);
    expect(due.missed).toEqual({
      count: 501, // 500 counted forwards, and the last before those that fire
      first: from,
      last: minute("2026-03-14T23:57"), // the one before the first that fires
      atLeast: true,
    });
  });
});
