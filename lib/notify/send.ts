import type { Db } from "@/lib/db/types";
import { isOneOf } from "@/lib/util/one-of";
import { type AttemptResult, postWebhook } from "@/lib/webhooks/deliver";
import { EmailSchema, sendEmail } from "./send-email";
import { slackUrl, smtpConfig } from "./settings";

// The outbox kinds that are notifications rather than webhooks.
const NOTIFY_KINDS = ["email", "slack"] as const;
export const isNotification = (kind: string) => isOneOf(NOTIFY_KINDS, kind);

const notSetUp = (what: string): AttemptResult => ({
  statusCode: null,
  latencyMs: 0,
  error: `${what} is not set up (Settings → Notifications)`,
  retryAfterMs: null,
});

const malformed = (what: string): AttemptResult => ({
  statusCode: null,
  latencyMs: 0,
  error: `the ${what} in the outbox is malformed`,
  retryAfterMs: null,
});

/**
 * One attempt of a notification from the outbox. The server's settings are read now, not when
 * the message was queued: a delivery row never holds the SMTP password or the Slack URL, and a
 * corrected setting fixes the retries.
 */
export async function sendNotification({
  db,
  kind,
  payload,
  timeoutMs,
}: {
  db: Db;
  kind: string;
  payload: unknown;
  timeoutMs: number;
}): Promise<AttemptResult> {
  if (kind === "email") {
    const smtp = await smtpConfig(db);
    if (!smtp) return notSetUp("E-mail");
    const email = EmailSchema.safeParse(payload);
    return email.success ? sendEmail(smtp, email.data, timeoutMs) : malformed("e-mail");
  }
  const url = await slackUrl(db);
  if (!url) return notSetUp("Slack");
  // The same POST as a webhook (SSRF guard, no redirects, bounded), unsigned: Slack ignores it.
  return postWebhook({ url, body: JSON.stringify(payload), headers: {}, timeoutMs });
}
