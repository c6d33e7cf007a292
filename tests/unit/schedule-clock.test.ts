import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { schedulerClock } from "@/lib/schedules/clock";

// The scheduler's time: the machine's, or the instant a test writes in a file.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "crewdeck-schedule-clock-"));
const file = path.join(dir, "now");
const saved = process.env.SCHEDULER_CLOCK_FILE;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  if (saved === undefined) delete process.env.SCHEDULER_CLOCK_FILE;
  else process.env.SCHEDULER_CLOCK_FILE = saved;
});

const NOON = "2031-05-06T12:00:00.000Z";
const LATER = "2031-05-06T13:30:00.000Z";

describe("the scheduler's clock", () => {
  it("is the machine's time without a clock file", () => {
    const before = Date.now();
    const now = schedulerClock()().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it("reads the file's instant each time, keeping the last one while the file is rewritten", () => {
    const clock = schedulerClock(file);
    fs.writeFileSync(file, ` ${NOON}\n`);
    expect(clock().toISOString()).toBe(NOON);
    fs.writeFileSync(file, LATER);
    expect(clock().toISOString()).toBe(LATER);
    fs.writeFileSync(file, ""); // caught half rewritten
    expect(clock().toISOString()).toBe(LATER);
    fs.writeFileSync(file, "not a time");
    expect(clock().toISOString()).toBe(LATER);
    fs.rmSync(file); // being replaced
    expect(clock().toISOString()).toBe(LATER);
  });

  it("is the machine's time from a file never read", () => {
    const before = Date.now();
    const now = schedulerClock(path.join(dir, "missing"))().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it("is one clock for the process: SCHEDULER_CLOCK_FILE's, remembering its last instant", async () => {
    process.env.SCHEDULER_CLOCK_FILE = file;
    vi.resetModules(); // the settings are read once per process
    const { scheduleNow } = await import("@/lib/schedules/clock");
    fs.writeFileSync(file, NOON);
    expect(scheduleNow().toISOString()).toBe(NOON);
    fs.writeFileSync(file, "");
    expect(scheduleNow().toISOString()).toBe(NOON);
  });
});
