import type { AttemptResult } from "@/lib/webhooks/deliver";
import { nextAttempt } from "@/lib/webhooks/schedule";
import { isNotification } from "./send";

/**
 * Whether to claim from the outbox now, and for how many slots. Claiming for many slots at once
 * costs one statement, not one per delivery; but a free slot waits no longer than a poll (slow
 * endpoints may hold the others).
 */
export function claimPlan({
  concurrency,
  inFlight,
  sinceClaimMs,
  pollMs,
}: {
  concurrency: number;
  inFlight: number;
  sinceClaimMs: number;
  pollMs: number;
}): { room: number; worthIt: boolean } {
  const room = concurrency - inFlight;
  const worthIt = room > 0 && (inFlight === 0 || room >= concurrency / 2 || sinceClaimMs >= pollMs);
  return { room, worthIt };
}

/**
 * What one attempt comes to: succeeded (2xx), failed for good (410 Gone from a webhook, or no
 * retry left) or pending its retry in `delayMs`; `gone` when the endpoint asked never to be
 * called again.
 */
export function attemptOutcome(
  d: { kind: string; attempts: number },
  r: AttemptResult,
  schedule: number[],
  random = Math.random,
): {
  status: "succeeded" | "failed" | "pending";
  gone: boolean;
  delayMs: number | null;
  error: string | null;
} {
  const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
  // (An SMTP reply is never 410; a Slack URL is a setting, not an endpoint to disable.)
  const gone = r.statusCode === 410 && !isNotification(d.kind);
  // A host that has stopped resolving is given up on after a few attempts, not 32 hours.
  const next = nextAttempt(schedule, d.attempts, r, random);
  const delayMs = ok || gone ? null : next.delayMs;
  const status = ok ? "succeeded" : delayMs === null ? "failed" : "pending";
  return { status, gone, delayMs, error: next.error };
}
