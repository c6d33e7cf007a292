import { setTimeout as sleep } from "node:timers/promises";
import { APICallError } from "@ai-sdk/provider";
import { RetryError } from "ai";
import { messageOf } from "./loop-step";

/** Waits `ms` unless `signal` aborts first (then rejects): the tests pass one that only records. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<unknown>;
const realWait: Wait = (ms, signal) => sleep(ms, undefined, { signal });

/**
 * The model call, retried as the SDK retries it: errors the provider marks retryable (429, 5xx,
 * lost connections), after 2 s, 4 s, … or the server's retry-after; `maxRetries` more at most.
 */
export async function withRetries<T>(
  call: () => PromiseLike<T>,
  maxRetries: number,
  signal: AbortSignal,
  wait: Wait = realWait,
): Promise<T> {
  const errors: unknown[] = [];
  let backoff = 2000;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (isAbortError(error) || maxRetries === 0) throw error;
      errors.push(error);
      const message = messageOf(error);
      if (errors.length > maxRetries)
        throw new RetryError({
          message: `Failed after ${errors.length} attempts. Last error: ${message}`,
          reason: "maxRetriesExceeded",
          errors,
        });
      if (!(APICallError.isInstance(error) && error.isRetryable)) {
        if (errors.length === 1) throw error;
        throw new RetryError({
          message: `Failed after ${errors.length} attempts with non-retryable error: '${message}'`,
          reason: "errorNotRetryable",
          errors,
        });
      }
      await wait(retryDelay(error, backoff), signal);
      backoff *= 2;
    }
  }
}

// The server's retry-after(-ms) when it gives one under a minute (or under the backoff).
function retryDelay(error: APICallError, backoff: number): number {
  const headers = error.responseHeaders;
  if (!headers) return backoff;
  let ms: number | undefined;
  const afterMs = Number.parseFloat(headers["retry-after-ms"] ?? "");
  if (!Number.isNaN(afterMs)) ms = afterMs;
  const after = headers["retry-after"];
  if (after && ms === undefined) {
    const s = Number.parseFloat(after);
    ms = Number.isNaN(s) ? Date.parse(after) - Date.now() : s * 1000;
  }
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)) return ms;
  return backoff;
}

function isAbortError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === "AbortError" ||
      error.name === "ResponseAborted" ||
      error.name === "TimeoutError")
  );
}
