import { APICallError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { withRetries } from "@/lib/engine/model-retries";

// How often a failing model call is tried: once, plus `maxRetries` more for errors the provider
// marks retryable, never again for others or for an abort. Waits come from the server's
// retry-after headers here, kept short, so the test does not sleep through the backoff.
const failure = (
  retryable: boolean,
  headers: Record<string, string> | null = { "retry-after-ms": "1" },
) =>
  new APICallError({
    message: retryable ? "overloaded" : "bad request",
    url: "http://model.test/v1",
    requestBodyValues: {},
    statusCode: retryable ? 529 : 400,
    responseHeaders: headers ?? undefined,
    isRetryable: retryable,
  });

/** A call failing with `errors` in turn, then answering "ok"; counts its attempts. */
function scripted(errors: unknown[]) {
  let calls = 0;
  const call = async () => {
    const err = errors[calls++];
    if (err) throw err;
    return "ok";
  };
  return { call, calls: () => calls };
}

const signal = new AbortController().signal;
const caught = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe("model call retries", () => {
  it("tries once more per retry, then gives up with every error", async () => {
    const s = scripted([failure(true), failure(true), failure(true), failure(true)]);
    const err = await caught(withRetries(s.call, 2, signal));
    expect(s.calls()).toBe(3);
    expect(RetryError.isInstance(err)).toBe(true);
    expect((err as RetryError).reason).toBe("maxRetriesExceeded");
    expect((err as RetryError).errors).toHaveLength(3);
  });

  it("answers once a retry succeeds", async () => {
    const s = scripted([failure(true), failure(true)]);
    expect(await withRetries(s.call, 2, signal)).toBe("ok");
    expect(s.calls()).toBe(3);
  });

  it("does not retry with no retries allowed, nor an error that is not retryable", async () => {
    const first = failure(true);
    const once = scripted([first]);
    expect(await caught(withRetries(once.call, 0, signal))).toBe(first);
    expect(once.calls()).toBe(1);

    const bad = failure(false);
    const s = scripted([bad]);
    expect(await caught(withRetries(s.call, 3, signal))).toBe(bad);
    expect(s.calls()).toBe(1);
  });

  it("stops at a non-retryable error after retries, with all the errors", async () => {
    const s = scripted([failure(true), failure(false)]);
    const err = await caught(withRetries(s.call, 3, signal));
    expect(s.calls()).toBe(2);
    expect((err as RetryError).reason).toBe("errorNotRetryable");
    expect((err as RetryError).errors).toHaveLength(2);
  });

  it("never retries an abort or a timeout, even after a retry", async () => {
    for (const name of ["AbortError", "ResponseAborted", "TimeoutError"]) {
      const abort = Object.assign(new Error("aborted"), { name });
      const s = scripted([failure(true), abort]);
      expect(await caught(withRetries(s.call, 3, signal))).toBe(abort);
      expect(s.calls()).toBe(2);
    }
  });

  it("stops waiting for the next attempt when the run is stopped", async () => {
    const stop = new AbortController();
    const s = scripted([failure(true, { "retry-after-ms": "30000" })]);
    const started = Date.now();
    const waiting = caught(withRetries(s.call, 3, stop.signal));
    setTimeout(() => stop.abort(), 20);
    expect((await waiting) as Error).toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(s.calls()).toBe(1);
  });

  it("waits what the server asks, in ms or seconds, rather than the 2 s backoff", async () => {
    const started = Date.now();
    const s = scripted([
      failure(true, { "retry-after-ms": "20" }),
      failure(true, { "retry-after": "0.02" }),
    ]);
    expect(await withRetries(s.call, 2, signal)).toBe("ok");
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("without the server's headers, waits 2 s, then twice as long before each retry", async () => {
    // MODEL_MAX_RETRIES is at most 10: the whole schedule, 2 s · 2^(n-1) for retry n, uncapped.
    const waits: number[] = [];
    const record = async (ms: number) => waits.push(ms);
    const s = scripted(Array.from({ length: 10 }, () => failure(true, null)));
    expect(await withRetries(s.call, 10, signal, record)).toBe("ok");
    expect(waits).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((n) => n * 1000));
  });

  it("doubles the backoff after a wait the server chose, and falls back to it", async () => {
    const waits: number[] = [];
    const record = async (ms: number) => waits.push(ms);
    const s = scripted([
      failure(true, { "retry-after-ms": "5" }),
      failure(true, null),
      failure(true, { "retry-after": "120" }), // a minute or more: the backoff instead
      failure(true, { "retry-after": "20" }),
      failure(true, { "retry-after": "-3" }), // negative, then unreadable: the backoff
      failure(true, { "retry-after": "soon" }),
      failure(true, { "retry-after": "90" }), // over a minute but under the backoff: taken
      failure(true, null),
    ]);
    expect(await withRetries(s.call, 8, signal, record)).toBe("ok");
    expect(waits).toEqual([5, 4000, 8000, 20_000, 32_000, 64_000, 90_000, 256_000]);
  });

  it("reads retry-after in seconds, and prefers retry-after-ms when both are given", async () => {
    let started = Date.now();
    const seconds = scripted([failure(true, { "retry-after": "0.3" })]);
    expect(await withRetries(seconds.call, 1, signal)).toBe("ok");
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    started = Date.now();
    const both = scripted([failure(true, { "retry-after-ms": "10", "retry-after": "3" })]);
    expect(await withRetries(both.call, 1, signal)).toBe("ok");
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
