import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { isDraining, onShutdown } from "@/lib/server/shutdown";

// Graceful shutdown (lib/server/shutdown.ts), with the process's signals and exit in hand: the
// first SIGTERM or SIGINT drains and runs `stop`, then exits 0; a second exits at once with 1; a
// `stop` that overruns its deadline by 10 s exits with 1. The HTTP suite's shutdown.test.ts sends
// real signals to a real server; this holds each rule on its own, with no clock of its own.
type Handler = (signal: NodeJS.Signals) => void;
let handlers: Map<string, Handler>;
let exits: number[];
let logged: string[];

beforeEach(() => {
  delete globalThis.__crewdeckDraining;
  handlers = new Map();
  exits = [];
  logged = [];
  vi.useFakeTimers();
  vi.spyOn(process, "removeAllListeners").mockImplementation(() => process);
  vi.spyOn(process, "on").mockImplementation((signal: string | symbol, handler: unknown) => {
    handlers.set(String(signal), handler as Handler);
    return process;
  });
  vi.spyOn(process, "exit").mockImplementation((code?: string | number | null) => {
    exits.push(Number(code));
    return undefined as never;
  });
  vi.spyOn(console, "log").mockImplementation((line: string) => void logged.push(line));
  vi.spyOn(console, "error").mockImplementation((line: string) => void logged.push(line));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  delete globalThis.__crewdeckDraining;
});

/** A `stop` that ends when the test says. */
function stopper() {
  let finish: (err?: Error) => void = () => {};
  const calls: number[] = [];
  const stop = () =>
    new Promise<void>((resolve, reject) => {
      calls.push(Date.now());
      finish = (err) => (err ? reject(err) : resolve());
    });
  return { stop, calls, finish: (err?: Error) => finish(err) };
}

it("listens for SIGTERM and SIGINT, each in place of what listened before", () => {
  onShutdown(async () => {}, { deadlineMs: 1_000 });
  expect([...handlers.keys()]).toEqual(["SIGTERM", "SIGINT"]);
  expect(vi.mocked(process.removeAllListeners).mock.calls).toEqual([["SIGTERM"], ["SIGINT"]]);
});

it("drains on the first signal, runs stop once, and exits 0 when it ends", async () => {
  const s = stopper();
  onShutdown(s.stop, { deadlineMs: 1_000 });
  expect(isDraining()).toBe(false);
  handlers.get("SIGTERM")?.("SIGTERM");
  expect(isDraining()).toBe(true);
  expect(s.calls).toHaveLength(1);
  expect(logged).toEqual(["SIGTERM: shutting down (up to 1 s)…"]);
  expect(exits).toEqual([]);
  s.finish();
  await vi.advanceTimersByTimeAsync(0);
  expect(exits).toEqual([0]);
  expect(logged.at(-1)).toBe("Shut down cleanly.");
});

it("still exits 0 when stop fails, saying why", async () => {
  const s = stopper();
  onShutdown(s.stop, { deadlineMs: 1_000 });
  handlers.get("SIGINT")?.("SIGINT");
  s.finish(new Error("the worker would not let go"));
  await vi.advanceTimersByTimeAsync(0);
  expect(logged).toContain("Shutdown: the worker would not let go");
  expect(exits).toEqual([0]);
});

it("exits at once with 1 on a second signal, without running stop again", () => {
  const s = stopper();
  onShutdown(s.stop, { deadlineMs: 1_000 });
  handlers.get("SIGTERM")?.("SIGTERM");
  // As the real exit does, nothing after it runs.
  vi.mocked(process.exit).mockImplementationOnce((code?: string | number | null) => {
    exits.push(Number(code));
    throw new Error("exited");
  });
  expect(() => handlers.get("SIGINT")?.("SIGINT")).toThrow("exited");
  expect(exits).toEqual([1]);
  expect(logged.at(-1)).toBe("SIGINT again: exiting now.");
  expect(s.calls).toHaveLength(1);
});

it("exits with 1 when stop overruns its deadline by 10 s, not before", async () => {
  const s = stopper();
  onShutdown(s.stop, { deadlineMs: 2_000 });
  handlers.get("SIGTERM")?.("SIGTERM");
  await vi.advanceTimersByTimeAsync(11_999);
  expect(exits).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(exits).toEqual([1]);
  expect(logged.at(-1)).toBe("Shutdown overran its deadline: exiting.");
});
