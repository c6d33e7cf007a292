import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/config/env";
import { AppError } from "./problem";

// A token bucket per caller (token or signed-in person), per process: RATE_LIMIT_PER_MINUTE
// requests a minute with bursts up to the same number. Beyond it: 429 with Retry-After.
type Bucket = { tokens: number; at: number };
const slot = globalThis as unknown as { __crewdeckBuckets?: Map<string, Bucket> };
slot.__crewdeckBuckets ??= new Map();
const buckets = slot.__crewdeckBuckets;

function keyOf(p: Principal) {
  if (p.kind === "org") return `org:${p.tokenId ?? "env"}`;
  if (p.kind === "user") return `token:${p.tokenId}`;
  return `session:${p.userId}`;
}

export function checkRateLimit(p: Principal, now = Date.now()) {
  const perMinute = env().RATE_LIMIT_PER_MINUTE;
  const perMs = perMinute / 60_000;
  const key = keyOf(p);
  const b = buckets.get(key) ?? { tokens: perMinute, at: now };
  b.tokens = Math.min(perMinute, b.tokens + (now - b.at) * perMs);
  b.at = now;
  if (b.tokens < 1) {
    buckets.set(key, b);
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000));
    throw new AppError(
      "rate-limited",
      429,
      `Too many requests: the limit is ${perMinute} a minute. Retry after ${retryAfter} s.`,
      {},
      { "retry-after": String(retryAfter) },
    );
  }
  b.tokens -= 1;
  if (buckets.size > 10_000) {
    // Forget callers whose buckets are full again: they would start full anyway.
    for (const [k, v] of buckets)
      if (v.tokens + (now - v.at) * perMs >= perMinute) buckets.delete(k);
  }
  buckets.set(key, b);
}
