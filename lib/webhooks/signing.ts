import crypto from "node:crypto";

// Standard Webhooks (standardwebhooks.com): the signature is HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>" with the secret's base64-decoded bytes.
export function newSigningSecret() {
  return `whsec_${crypto.randomBytes(24).toString("base64")}`;
}

function key(secret: string) {
  return Buffer.from(secret.replace(/^whsec_/, ""), "base64");
}

export function sign({
  secret,
  id,
  timestamp,
  body,
}: {
  secret: string;
  id: string;
  timestamp: number;
  body: string;
}) {
  const mac = crypto
    .createHmac("sha256", key(secret))
    .update(`${id}.${timestamp}.${body}`)
    .digest("base64");
  return `v1,${mac}`;
}

export function signatureHeaders({
  secret,
  id,
  body,
  now = new Date(),
}: {
  secret: string;
  id: string;
  body: string;
  now?: Date;
}) {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": sign({ secret, id, timestamp, body }),
  };
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** Checks the headers of a received webhook; tolerates 5 minutes of clock skew, as the spec suggests. */
export function verify({
  secret,
  headers,
  body,
  toleranceSeconds = 300,
  now = new Date(),
}: {
  secret: string;
  headers: Headers;
  body: string;
  toleranceSeconds?: number;
  now?: Date;
}): VerifyResult {
  const id = headers.get("webhook-id");
  const ts = headers.get("webhook-timestamp");
  const signatures = headers.get("webhook-signature");
  if (!id || !ts || !signatures)
    return { ok: false, reason: "missing webhook-id, webhook-timestamp or webhook-signature" };
  const timestamp = Number(ts);
  if (!Number.isInteger(timestamp))
    return { ok: false, reason: "webhook-timestamp is not a number of seconds" };
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds)
    return { ok: false, reason: "webhook-timestamp is too old or in the future" };
  const expected = Buffer.from(sign({ secret, id, timestamp, body }));
  // Several space-separated signatures may be sent during a secret rotation: any one may match.
  const match = signatures.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  return match ? { ok: true } : { ok: false, reason: "no signature matches" };
}
