import crypto from "node:crypto";
import { z } from "zod";

// A review link in a notification: it opens one review and nothing else. The payload is plain
// base64url JSON (it names a run, nothing secret) followed by an HMAC-SHA256 over it, with a key
// derived from the auth secret for this one purpose, so a link cannot be replayed as anything
// else (a session cookie, another purpose's token).
const PayloadSchema = z.object({
  purpose: z.literal("review"),
  execution_id: z.string().min(1),
  crew: z.string().min(1),
  task_id: z.string().min(1),
  attempt: z.number().int().nullable(),
  /** Whom the link was sent to (null: a team channel such as Slack). */
  recipient: z.string().nullable(),
  /** Expiry, in seconds since the epoch. */
  exp: z.number().int(),
});
export type ReviewLink = z.infer<typeof PayloadSchema>;

export type LinkCheck =
  | { ok: true; link: ReviewLink }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

const keyFor = (secret: string) =>
  Buffer.from(crypto.hkdfSync("sha256", secret, "crewdeck", "review-link-v1", 32));

const mac = (secret: string, body: string) =>
  crypto.createHmac("sha256", keyFor(secret)).update(body).digest("base64url");

export function signReviewLink(
  secret: string,
  link: Omit<ReviewLink, "purpose" | "exp">,
  { ttlHours, now = Date.now() }: { ttlHours: number; now?: number },
): string {
  const payload: ReviewLink = {
    purpose: "review",
    ...link,
    exp: Math.floor(now / 1000 + ttlHours * 3600),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${mac(secret, body)}`;
}

/** The link's payload when its signature is ours, its purpose is review and it has not expired. */
export function verifyReviewLink(secret: string, token: string, now = Date.now()): LinkCheck {
  const [body, sig, ...rest] = token.split(".");
  if (!body || !sig || rest.length) return { ok: false, reason: "malformed" };
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
    return { ok: false, reason: "forged" };
  let parsed: z.ZodSafeParseResult<ReviewLink>;
  try {
    parsed = PayloadSchema.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (!parsed.success) return { ok: false, reason: "malformed" };
  if (parsed.data.exp * 1000 <= now) return { ok: false, reason: "expired" };
  return { ok: true, link: parsed.data };
}
