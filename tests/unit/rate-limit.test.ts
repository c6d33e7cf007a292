import { beforeAll, describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";

// The per-caller token bucket behind 429s.
let checkRateLimit: typeof import("@/lib/http/rate-limit").checkRateLimit;

beforeAll(async () => {
  process.env.RATE_LIMIT_PER_MINUTE = "60";
  ({ checkRateLimit } = await import("@/lib/http/rate-limit"));
});

describe("rate limit", () => {
  it("allows a burst up to the limit, then answers 429 with Retry-After, and refills over time", () => {
    const alice = {
      kind: "user" as const,
      tokenId: "t-alice",
      userId: "u1",
      email: "a@example.com",
      role: "operator" as const,
    };
    const t0 = 1_000_000;
    for (let i = 0; i < 60; i++) checkRateLimit(alice, t0);
    let refused: AppError | undefined;
    try {
      checkRateLimit(alice, t0);
    } catch (err) {
      refused = err as AppError;
    }
    expect(refused?.status).toBe(429);
    expect(refused?.headers["retry-after"]).toBe("1");
    expect(refused?.message).toMatch(/60 a minute/);
    expect(() => checkRateLimit(alice, t0 + 1_000)).not.toThrow(); // one second later: one more
    expect(() => checkRateLimit({ kind: "org", tokenId: null }, t0)).not.toThrow(); // others unaffected
  });
});
