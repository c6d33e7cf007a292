import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/errors";

// A token bucket per caller (token or signed-in person), per process: RATE_LIMIT_PER_MINUTE
// requests a minute with bursts up to the same number. Beyond it: 429 with Retry-After.
type Bucket = { tokens: number; at: number };
declare global {
  var __crewdeckBuckets: Map<string, Bucket> | undefined;
}
const slot = globalThis;
slot.__crewdeckBuckets ??= new Map();
const buckets = slot.__crewdeckBuckets;

function keyOf(p: Principal) {
  if (p.kind === "org") return `org:${p.tokenId ?? "env"}`;
  if (p.kind === "user") return `token:${p.tokenId}`;
  return `session:${p.userId}`;
}

/** Takes `cost` tokens from the caller's bucket (a batch of messages: one each); 429 if short. */
export function checkRateLimit(p: Principal, now = Date.now(), cost = 1) {
  checkRateLimitFor(keyOf(p), now, cost);
}

/** The same bucket for callers that are not principals (integration tokens). */
export function checkRateLimitFor(key: string, now = Date.now(), cost = 1) {
  const perMinute = env().RATE_LIMIT_PER_MINUTE;
  const perMs = perMinute / 60_000;
  const b = buckets.get(key) ?? { tokens: perMinute, at: now };
  b.tokens = Math.min(perMinute, b.tokens + (now - b.at) * perMs);
  b.at = now;
  if (b.tokens < cost) {
    buckets.set(key, b);
    const retryAfter = Math.max(
      1,
      Math.ceil((Math.min(cost, perMinute) - b.tokens) / perMs / 1000),
    );
    throw new AppError(
      "rate-limited",
      429,
      `Too many requests: the limit is ${perMinute} a minute. Retry after ${retryAfter} s.`,
      {},
      { "retry-after": String(retryAfter) },
    );
  }
  b.tokens -= cost;
  if (buckets.size > 10_000) {
    // Forget callers whose buckets are full again: they would start full anyway.
    for (const [k, v] of buckets)
      if (v.tokens + (now - v.at) * perMs >= perMinute) buckets.delete(k);
  }
  buckets.set(key, b);
}

// Open event streams, per caller and in all, per process. Each holds a socket (a file
// descriptor) for as long as the client stays: without a bound one token could hold enough to
// make every new connection fail, health checks included.
type StreamCounts = { total: number; byCaller: Map<string, number> };
declare global {
  var __crewdeckStreams: StreamCounts | undefined;
}
globalThis.__crewdeckStreams ??= { total: 0, byCaller: new Map() };
const streams = globalThis.__crewdeckStreams;
const STREAM_RETRY_AFTER_S = 10;

/**
 * Takes one stream slot for the caller: 429 past STREAM_LIMIT_PER_CALLER, 503 past
 * STREAM_LIMIT_TOTAL. Returns the release, which is safe to call more than once.
 */
export function acquireStreamSlot(p: Principal): () => void {
  const { STREAM_LIMIT_PER_CALLER: perCaller, STREAM_LIMIT_TOTAL: total } = env();
  const key = keyOf(p);
  const mine = streams.byCaller.get(key) ?? 0;
  const retry = { "retry-after": String(STREAM_RETRY_AFTER_S) };
  if (mine >= perCaller) {
    throw new AppError(
      "too-many-streams",
      429,
      `Too many open event streams: at most ${perCaller} per caller. Close one, or poll /status.`,
      { limit: perCaller },
      retry,
    );
  }
  if (streams.total >= total) {
    throw new AppError(
      "streams-exhausted",
      503,
      "The server holds as many event streams as it may; poll /status, or retry later.",
      {},
      retry,
    );
  }
  streams.byCaller.set(key, mine + 1);
  streams.total++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    streams.total--;
    const left = (streams.byCaller.get(key) ?? 1) - 1;
    if (left > 0) streams.byCaller.set(key, left);
    else streams.byCaller.delete(key);
  };
}
