import { describe, expect, it } from "vitest";
import { triggerLimits } from "@/lib/triggers/throttle";

// A delivery whose signature fails costs its body (up to 1 MiB) and an HMAC before it is
// refused. An address whose deliveries failed TRIGGER_RATE_PER_MINUTE times this minute is
// answered 429 before its next body is read; other addresses are not held back.

describe("unsigned deliveries per address", () => {
  it("holds back an address past its failures this minute, until the next minute", () => {
    const now = new Date("2026-03-01T10:00:15Z");
    const limit = triggerLimits.perMinute;
    for (let i = 0; i < limit; i++) {
      expect(triggerLimits.unsignedWait("203.0.113.9", now)).toBeNull();
      triggerLimits.failedSignature("203.0.113.9", now);
    }
    expect(triggerLimits.unsignedWait("203.0.113.9", now)).toBe(45);
    expect(triggerLimits.unsignedWait("198.51.100.1", now)).toBeNull();
    expect(triggerLimits.unsignedWait("203.0.113.9", new Date("2026-03-01T10:01:00Z"))).toBeNull();
  });
});
