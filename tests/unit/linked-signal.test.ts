import { describe, expect, it } from "vitest";
import { linkedSignal } from "@/lib/util/linked-signal";

describe("linkedSignal", () => {
  it("aborts with the reason of whichever source aborts first", () => {
    const a = new AbortController();
    const b = new AbortController();
    const { signal } = linkedSignal(a.signal, b.signal);
    expect(signal.aborted).toBe(false);
    b.abort(new Error("stopped"));
    a.abort(new Error("later"));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe("stopped");
  });

  it("is aborted at once when a source already is", () => {
    const a = new AbortController();
    a.abort("gone");
    const { signal } = linkedSignal(new AbortController().signal, a.signal);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("gone");
  });

  it("follows a timeout signal", async () => {
    const { signal } = linkedSignal(new AbortController().signal, AbortSignal.timeout(1));
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    expect((signal.reason as DOMException).name).toBe("TimeoutError");
  });

  it("stops following its sources once unlinked, leaving no listener on them", () => {
    const a = new AbortController();
    let listeners = 0;
    const add = a.signal.addEventListener.bind(a.signal);
    const remove = a.signal.removeEventListener.bind(a.signal);
    a.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    };
    a.signal.removeEventListener = (...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    };
    const { signal, unlink } = linkedSignal(a.signal);
    expect(listeners).toBe(1);
    unlink();
    expect(listeners).toBe(0);
    a.abort("late");
    expect(signal.aborted).toBe(false);
  });
});
