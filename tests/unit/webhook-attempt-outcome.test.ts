import { describe, expect, it } from "vitest";
import { answerOf, failureOf } from "@/lib/webhooks/deliver";
import { RefusedUrlError } from "@/lib/webhooks/ssrf";

// What one POST of a webhook comes to, from the answer or the error it got.

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("answerOf", () => {
  it("is a success on 2xx, a failure naming any other status", () => {
    expect(answerOf(204, undefined)).toEqual({ statusCode: 204, error: null, retryAfterMs: null });
    expect(answerOf(302, undefined)).toEqual({
      statusCode: 302,
      error: "HTTP 302",
      retryAfterMs: null,
    });
    expect(answerOf(undefined, undefined)).toEqual({
      statusCode: null,
      error: "HTTP undefined",
      retryAfterMs: null,
    });
  });

  it("reads Retry-After in seconds, the first of several", () => {
    expect(answerOf(503, "7").retryAfterMs).toBe(7_000);
    expect(answerOf(429, ["2", "9"]).retryAfterMs).toBe(2_000);
    expect(answerOf(429, "soon").retryAfterMs).toBeNull();
  });
});

describe("failureOf", () => {
  const at = { reusedUnanswered: false, hostname: "hooks.example.com" };

  it("is a stale socket only for a reset of a reused, unanswered connection", () => {
    const reset = coded("socket hang up", "ECONNRESET");
    expect(failureOf(reset, { ...at, reusedUnanswered: true })).toEqual({
      outcome: { statusCode: null, error: "socket hang up", retryAfterMs: null },
      staleSocket: true,
    });
    expect(failureOf(reset, at).staleSocket).toBe(false);
  });

  it("says the host does not resolve, marked to be given up on sooner", () => {
    expect(failureOf(coded("getaddrinfo ENOTFOUND", "ENOTFOUND"), at)).toEqual({
      outcome: {
        statusCode: null,
        error: "the host hooks.example.com does not resolve (ENOTFOUND)",
        retryAfterMs: null,
        unresolved: true,
      },
      staleSocket: false,
    });
  });

  it("says a refused address is refused; any other error as it is", () => {
    expect(failureOf(new RefusedUrlError("10.0.0.1 is private"), at).outcome.error).toBe(
      "refused: 10.0.0.1 is private",
    );
    expect(failureOf(new Error("no response within 50 ms"), at).outcome.error).toBe(
      "no response within 50 ms",
    );
  });
});
