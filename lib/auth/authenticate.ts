import "server-only";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { getDb } from "@/lib/db";
import { AppError, errors } from "@/lib/errors";
import type { Principal } from "./principal";
import { ROLES } from "./roles";
import { sameOrigin } from "./same-origin";
import { hashToken, looksLikeToken, safeEqual } from "./token-format";

type CachedToken = { principal: Principal | null; expires: number };

// /status is polled hard: a verified token is remembered briefly so a poll costs one query, not
// two. The verdict carries the owner's role, so revoking a token and changing, disabling or
// removing its owner all NOTIFY every process, which forgets its cache at once; CACHE_MS only
// bounds the staleness if that notification is lost.
const CACHE_MS = 5_000;
const LAST_USED_RESOLUTION_MS = 60_000;
declare global {
  var __crewdeckTokenCache: Map<string, CachedToken> | undefined;
  var __crewdeckTokenListen: Promise<void> | undefined;
  var __crewdeckTokenGeneration: number | undefined;
}
const slot = globalThis;
slot.__crewdeckTokenCache ??= new Map();
slot.__crewdeckTokenGeneration ??= 0;
const cache = slot.__crewdeckTokenCache;

export function forgetCachedTokens() {
  cache.clear();
  // A lookup that read the database before this flush must not store its (now stale) verdict.
  slot.__crewdeckTokenGeneration = (slot.__crewdeckTokenGeneration ?? 0) + 1;
}

// CREW_TOKEN's digest, computed once per value rather than on every request.
let envDigest: { token: string; hash: string } | undefined;
function envTokenHash(token: string | undefined) {
  if (!token) return undefined;
  if (envDigest?.token !== token) envDigest = { token, hash: hashToken(token) };
  return envDigest.hash;
}

export async function authenticate(request: Request): Promise<Principal> {
  const header = request.headers.get("authorization") ?? "";
  if (
    !header &&
    /(^|;\s*)(__Secure-)?authjs\.session-token=/.test(request.headers.get("cookie") ?? "")
  ) {
    return sessionPrincipal(request);
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  if (!match?.[1]) throw errors.unauthorized();
  const token = match[1];
  const hash = hashToken(token);

  const envHash = envTokenHash(env().CREW_TOKEN);
  if (envHash && safeEqual(hash, envHash)) return { kind: "org", tokenId: null };
  if (!looksLikeToken(token)) throw errors.unauthorized("The bearer token is not valid.");

  const now = Date.now();
  const hit = cache.get(hash);
  if (hit && hit.expires > now) {
    if (!hit.principal) throw errors.unauthorized("The bearer token is not valid.");
    return hit.principal;
  }
  const generation = slot.__crewdeckTokenGeneration;
  const principal = await lookupToken(hash);
  if (cache.size > 10_000) cache.clear(); // bound memory against floods of random tokens
  if (generation === slot.__crewdeckTokenGeneration) {
    cache.set(hash, { principal, expires: now + CACHE_MS });
  }
  if (!principal) throw errors.unauthorized("The bearer token is not valid or has been revoked.");
  return principal;
}

const TokenOwnerRow = z.object({
  id: z.string(),
  kind: z.enum(["org", "user"]),
  user_id: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(ROLES).nullable(),
  disabled: z.boolean(),
  stale: z.boolean(),
});

async function lookupToken(hash: string): Promise<Principal | null> {
  const db = await getDb();
  // While notifications may be missed (connection lost, or back after a gap), trust no verdict.
  slot.__crewdeckTokenListen ??= db.listen("crewdeck_tokens", forgetCachedTokens, () =>
    forgetCachedTokens(),
  );
  await slot.__crewdeckTokenListen;
  const { rows } = await db.query(
    `SELECT t.id, t.kind, t.user_id, u.email, u.role, u.disabled_at IS NOT NULL AS disabled,
            (t.last_used_at IS NULL OR t.last_used_at < now() - make_interval(secs => $2)) AS stale
       FROM api_tokens t LEFT JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
    [hash, LAST_USED_RESOLUTION_MS / 1000],
    TokenOwnerRow,
  );
  const row = rows[0];
  if (!row) return null;
  if (row.kind === "user") {
    // A personal token is its owner acting: no owner, or a disabled one, and it is worth nothing.
    if (!row.user_id || !row.email || !row.role || row.disabled) return null;
  }
  // last_used_at is informational: update it at most once a minute, off the request's path.
  if (row.stale) {
    db.query("UPDATE api_tokens SET last_used_at = now() WHERE id = $1", [row.id]).catch(() => {});
  }
  if (row.kind === "user" && row.user_id && row.email && row.role) {
    return {
      kind: "user",
      tokenId: row.id,
      userId: row.user_id,
      email: row.email,
      role: row.role,
    };
  }
  return { kind: "org", tokenId: row.id };
}

/**
 * The dashboard calls the same API with its session cookie. Cookies ride along on cross-site
 * requests, so a state-changing one must come from this site's own pages.
 */
async function sessionPrincipal(request: Request): Promise<Principal> {
  if (
    !["GET", "HEAD"].includes(request.method) &&
    !sameOrigin(request.headers, env().TRUST_PROXY)
  ) {
    throw new AppError(
      "forbidden",
      403,
      "Cross-site request refused: send it from the dashboard, or use a bearer token.",
    );
  }
  const { currentUser } = await import("./session");
  const user = await currentUser();
  if (!user) throw errors.unauthorized("Your session has ended; sign in again.");
  return { kind: "session", userId: user.id, email: user.email, role: user.role };
}
