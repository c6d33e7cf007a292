import crypto from "node:crypto";

// Tokens are 32 random bytes behind a kind prefix (so a leaked one is recognisable in a scan).
// Only the SHA-256 is stored: with 256 bits of entropy a slow hash adds nothing.
export const TOKEN_PREFIX = { org: "cdo_", user: "cdu_", integration: "cdi_" } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const TOKEN_RE = /^cd[oui]_[A-Za-z0-9_-]{43}$/;

export function generateToken(kind: TokenKind) {
  return TOKEN_PREFIX[kind] + crypto.randomBytes(32).toString("base64url");
}

export function hashToken(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function looksLikeToken(token: string) {
  return TOKEN_RE.test(token);
}

export function displayPrefix(token: string) {
  return `${token.slice(0, 10)}…`;
}

/** Constant-time string comparison (for digests: equal lengths leak nothing). */
export function safeEqual(a: string, b: string) {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
