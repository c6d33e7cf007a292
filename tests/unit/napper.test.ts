import { afterEach, describe, expect, it, vi } from "vitest";
import { createNapper, IDLE_NAP_MAX_MS, idleBackoff, WAKE_IN_MAX_MS } from "@/lib/util/napper";

describe("idleBackoff", () => {
  it("doubles while a loop finds nothing, up to the cap, and starts over when it finds work", () => {
    const naps = idleBackoff(100);
    const idle = Array.from({ length: 7 }, () => naps.after(false));
    expect(idle).toEqual([100, 200, 400, 800, 1600, IDLE_NAP_MAX_MS, IDLE_NAP_MAX_MS]);
    expect(naps.after(true)).toBe(100);
    expect(naps.after(false)).toBe(100);
    expect(naps.after(false)).toBe(200);
  });

  it("never naps less than the base, even when the base is over the cap", () => {
    const naps = idleBackoff(5_000);
    expect([naps.after(false), naps.after(false), naps.after(true)]).toEqual([5_000, 5_000, 5_000]);
  });
});

describe("createNapper", () => {
  afterEach(() => vi.useRealTimers());

  it("a wake cuts a nap short; one that comes between naps makes the next return at once", async () => {
    vi.useFakeTimers();
    const napper = createNapper();
    let woke = false;
    const nap = napper.nap(60_000).then(() => (woke = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(woke).toBe(false);
    napper.wake();
    await nap;
    expect(woke).toBe(true);

    napper.wake();
    let second = false;
    const next = napper.nap(60_000).then(() => (second = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(second).toBe(true);
    await next;
  });

  it("wakeIn wakes it when that time comes, not before", async () => {
    vi.useFakeTimers();
    const napper = createNapper();
    let woke = false;
    const nap = napper.nap(60_000).then(() => (woke = true));
    napper.wakeIn(300);
    await vi.advanceTimersByTimeAsync(299);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(woke).toBe(true);
    await nap;
  });

  it("wakeIn keeps no timer for what is due far ahead: a loop is at most 2 s late for it", async () => {
    vi.useFakeTimers();
    const napper = createNapper();
    napper.wakeIn(WAKE_IN_MAX_MS + 1);
    expect(vi.getTimerCount()).toBe(0);
    napper.wakeIn(WAKE_IN_MAX_MS);
    expect(vi.getTimerCount()).toBe(1);
  });
});
