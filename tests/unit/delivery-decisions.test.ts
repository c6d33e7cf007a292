import { describe, expect, it } from "vitest";
import { attemptOutcome, claimPlan } from "@/lib/notify/delivery-decisions";
import type { AttemptResult } from "@/lib/webhooks/deliver";

// When the delivery worker claims from the outbox, and what one attempt comes to.

describe("claimPlan", () => {
  const plan = (inFlight: number, sinceClaimMs = 0) =>
    claimPlan({ concurrency: 8, inFlight, sinceClaimMs, pollMs: 200 });

  it("claims for every free slot when none is busy, or half or more are free", () => {
    expect(plan(0)).toEqual({ room: 8, worthIt: true });
    expect(plan(4)).toEqual({ room: 4, worthIt: true });
  });

  it("puts off a claim for a few free slots until a poll has passed", () => {
    expect(plan(5, 199)).toEqual({ room: 3, worthIt: false });
    expect(plan(5, 200)).toEqual({ room: 3, worthIt: true });
  });

  it("never claims with no slot free", () => {
    expect(plan(8, 10_000)).toEqual({ room: 0, worthIt: false });
  });
});

describe("attemptOutcome", () => {
  const result = (over: Partial<AttemptResult>): AttemptResult => ({
    statusCode: 200,
    latencyMs: 5,
    error: null,
    retryAfterMs: null,
    ...over,
  });
  const schedule = [1_000, 60_000];
  const webhook = { kind: "step", attempts: 1 };
  const half = () => 0.5;

  it("succeeds on any 2xx", () => {
    for (const statusCode of [200, 204, 299])
      expect(attemptOutcome(webhook, result({ statusCode }), schedule, half)).toMatchObject({
        status: "succeeded",
        gone: false,
        delayMs: null,
      });
  });

  it("retries a failure on the schedule while it lasts, then fails", () => {
    const failed = result({ statusCode: 500, error: "HTTP 500" });
    const first = attemptOutcome(webhook, failed, schedule, half);
    expect(first).toMatchObject({ status: "pending", gone: false, error: "HTTP 500" });
    expect(first.delayMs).toBeGreaterThan(0);
    expect(attemptOutcome({ kind: "step", attempts: 3 }, failed, schedule, half)).toMatchObject({
      status: "failed",
      delayMs: null,
    });
  });

  it("is gone, with no retry, when a webhook answers 410", () => {
    expect(attemptOutcome(webhook, result({ statusCode: 410 }), schedule, half)).toMatchObject({
      status: "failed",
      gone: true,
      delayMs: null,
    });
  });

  it("retries a notification's 410 like any failure: no endpoint to disable", () => {
    const outcome = attemptOutcome(
      { kind: "email", attempts: 1 },
      result({ statusCode: 410 }),
      schedule,
      half,
    );
    expect(outcome).toMatchObject({ status: "pending", gone: false });
  });
});
