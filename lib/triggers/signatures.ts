import crypto from "node:crypto";

// How an inbound trigger tells a real delivery from a forged one. Three kinds, for three kinds of
// sender: Standard Webhooks (standardwebhooks.com) for anyone who can sign, GitHub's own scheme
// because GitHub cannot be told to sign any other way, and a plain shared secret for senders that
// cannot sign at all. Reasons name the header at fault and never the secret or the signature we
// expected: they may be shown to whoever sent the delivery.

export const SIGNATURE_KINDS = ["standard", "github", "shared"] as const;
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];

export type Verified =
  | { ok: true; deliveryId: string | null; timestamp: Date | null }
  | { ok: false; reason: string };

type HeaderMap = Record<string, string | undefined>;

const STANDARD_PREFIX = "whsec_";
const SHARED_PREFIX = "cdt_";

/** A new secret for a trigger of this kind (shown to its creator once). */
export function newSecret(kind: SignatureKind): string {
  switch (kind) {
    case "standard":
      return `${STANDARD_PREFIX}${crypto.randomBytes(24).toString("base64")}`;
    case "github":
      // Plain hex: it is pasted into GitHub's form, which takes any text.
      return crypto.randomBytes(32).toString("hex");
    case "shared":
      return `${SHARED_PREFIX}${crypto.randomBytes(24).toString("base64url")}`;
  }
}

/** headers: lower-cased names → value. body: the raw bytes as received. */
export function verifyDelivery(
  kind: SignatureKind,
  secret: string,
  headers: Record<string, string | undefined>,
  body: Buffer,
  now: Date,
  toleranceSeconds = 300,
): Verified {
  // An empty secret would make an empty signature or token match: never accept one.
  if (!secret) return fail("This trigger has no secret to check deliveries against.");
  switch (kind) {
    case "standard":
      return verifyStandard(secret, headers, body, now, toleranceSeconds);
    case "github":
      return verifyGithub(secret, headers, body);
    case "shared":
      return verifyShared(secret, headers, now, toleranceSeconds);
  }
}

function verifyStandard(
  secret: string,
  headers: HeaderMap,
  body: Buffer,
  now: Date,
  toleranceSeconds: number,
): Verified {
  const id = headers["webhook-id"];
  const signatures = headers["webhook-signature"];
  if (!id) return fail("Missing the webhook-id header (Standard Webhooks signs every delivery).");
  if (!signatures)
    return fail("Missing the webhook-signature header (Standard Webhooks signs every delivery).");
  const time = readTimestamp(headers, now, toleranceSeconds, true);
  if (!time.ok) return time;
  // The reference libraries accept the secret with or without its whsec_ prefix.
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  if (key.length === 0) return fail("This trigger's secret is not a Standard Webhooks secret.");
  const expected = crypto
    .createHmac("sha256", key)
    .update(`${id}.${time.raw}.`)
    .update(body)
    .digest("base64");
  // Space-separated `version,signature` pairs: several are sent while a sender rotates its
  // secret, and any v1 one that matches is enough. Other versions (v1a is asymmetric) are skipped.
  const match = signatures.split(" ").some((entry) => {
    const comma = entry.indexOf(",");
    return (
      comma > 0 && entry.slice(0, comma) === "v1" && sameText(entry.slice(comma + 1), expected)
    );
  });
  if (!match)
    return fail(
      "The webhook-signature header does not match the body signed with this trigger's secret.",
    );
  return { ok: true, deliveryId: id, timestamp: time.date };
}

function verifyGithub(secret: string, headers: HeaderMap, body: Buffer): Verified {
  const given = headers["x-hub-signature-256"];
  if (!given)
    return fail(
      "Missing the x-hub-signature-256 header (GitHub signs every delivery when the webhook has a secret).",
    );
  const expected = `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
  if (!sameText(given, expected))
    return fail(
      "The x-hub-signature-256 header does not match the body signed with this trigger's secret.",
    );
  // GitHub signs no timestamp and not its delivery id: the id tells a redelivery from a new event,
  // and the receiver remembers bodies to tell a replay from either (replays.ts).
  return { ok: true, deliveryId: headers["x-github-delivery"] || null, timestamp: null };
}

function verifyShared(
  secret: string,
  headers: HeaderMap,
  now: Date,
  toleranceSeconds: number,
): Verified {
  const bearer = /^Bearer +(.+)$/i.exec(headers.authorization ?? "")?.[1]?.trim();
  const given = [bearer, headers["x-webhook-secret"]].filter((s): s is string => !!s);
  if (!given.length)
    return fail(
      "Missing the authorization header (Bearer <secret>) or the x-webhook-secret header.",
    );
  // Compare every one given, so the time taken does not tell which header was checked.
  const matches = given.map((candidate) => sameText(candidate, secret));
  if (!matches.includes(true))
    return fail(
      bearer
        ? "The authorization header does not carry this trigger's secret."
        : "The x-webhook-secret header does not carry this trigger's secret.",
    );
  // No signature covers it, but a sender that stamps its deliveries still gets the window.
  const time = readTimestamp(headers, now, toleranceSeconds, false);
  if (!time.ok) return time;
  const deliveryId = headers["idempotency-key"] || headers["x-delivery-id"] || null;
  return { ok: true, deliveryId, timestamp: time.date };
}

type Timestamp = { ok: true; raw: string; date: Date | null } | { ok: false; reason: string };

/** webhook-timestamp, whole seconds since the epoch, within ±toleranceSeconds of `now`. */
function readTimestamp(
  headers: HeaderMap,
  now: Date,
  toleranceSeconds: number,
  required: boolean,
): Timestamp {
  const raw = headers["webhook-timestamp"];
  if (!raw) {
    if (!required) return { ok: true, raw: "", date: null };
    return fail(
      "Missing the webhook-timestamp header (Standard Webhooks signs every delivery with its time).",
    );
  }
  if (!/^\d{1,15}$/.test(raw))
    return fail("The webhook-timestamp header is not a whole number of seconds since 1970.");
  const seconds = Number(raw);
  const skew = seconds - now.getTime() / 1000;
  if (skew < -toleranceSeconds)
    return fail(
      `The webhook-timestamp header is more than ${toleranceSeconds} seconds old: an old or replayed delivery is refused.`,
    );
  if (skew > toleranceSeconds)
    return fail(
      `The webhook-timestamp header is more than ${toleranceSeconds} seconds in the future: check the sender's clock.`,
    );
  return { ok: true, raw, date: new Date(seconds * 1000) };
}

/** Constant-time equality of two texts; texts of different lengths differ. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

function fail(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}
