import { afterEach, describe, expect, it, vi } from "vitest";
import { eventBatcher } from "@/components/event-batcher";
import type { ExecutionEvent } from "@/lib/contract/status";

// A run page applies its live events in batches: each once, in order, /status re-read after a
// state change; a burst waits for the next frame (a timeout in a hidden tab).
const ev = (seq: number, type = "thought"): ExecutionEvent => ({
  seq,
  type,
  task_id: "t",
  attempt: 1,
  data: {},
  created_at: "",
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the live events' batcher", () => {
  it("applies a step after a quiet spell at once, each event once", async () => {
    const lastSeq = { current: 0 };
    const batches: number[][] = [];
    const stale = vi.fn();
    const b = eventBatcher(lastSeq, (batch) => batches.push(batch.map((e) => e.seq)), stale);
    b.add([ev(1), ev(2), ev(1)]);
    expect(batches).toEqual([]);
    await Promise.resolve();
    expect(batches).toEqual([[1, 2]]);
    expect(lastSeq.current).toBe(2);
    expect(stale).not.toHaveBeenCalled();
  });

  it("holds a burst for a timeout in a hidden tab, then re-reads /status once", async () => {
    vi.useFakeTimers();
    vi.advanceTimersByTime(1000); // a quiet spell
    vi.stubGlobal("document", { hidden: true });
    const lastSeq = { current: 0 };
    const batches: number[][] = [];
    const stale = vi.fn();
    const b = eventBatcher(lastSeq, (batch) => batches.push(batch.map((e) => e.seq)), stale);
    b.add([ev(1)]);
    await Promise.resolve();
    b.add([ev(2, "task_completed")]);
    b.add([ev(3)]);
    await Promise.resolve();
    expect(batches).toEqual([[1]]);
    vi.advanceTimersByTime(50);
    expect(batches).toEqual([[1], [2, 3]]);
    expect(stale).toHaveBeenCalledTimes(1);
  });

  it("re-reads /status when the run ends, and a cancelled batch never lands", async () => {
    vi.useFakeTimers();
    vi.advanceTimersByTime(1000); // a quiet spell
    vi.stubGlobal("document", { hidden: true });
    const stale = vi.fn();
    const onEvents = vi.fn();
    const b = eventBatcher({ current: 0 }, onEvents, stale);
    b.add([ev(1)]);
    await Promise.resolve();
    b.markStale();
    b.add([ev(2)]);
    b.cancel();
    vi.advanceTimersByTime(100);
    expect(onEvents).toHaveBeenCalledTimes(1);
    expect(stale).not.toHaveBeenCalled();
  });
});
