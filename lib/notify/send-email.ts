import net from "node:net";
import nodemailer from "nodemailer";
import { z } from "zod";
import { errorCode, errorField, errorMessage } from "@/lib/errors";
import type { AttemptResult } from "@/lib/webhooks/deliver";
import { RefusedUrlError, UNRESOLVED_CODES } from "@/lib/webhooks/ssrf";
import type { SmtpConfig } from "./settings";
import { checkedSmtpAddress } from "./smtp-address";

/** An e-mail as the outbox keeps it (lib/notify/enqueue.ts). */
export const EmailSchema = z.looseObject({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type Email = { to: string; subject: string; text: string; html: string };

/** One attempt to hand `email` to the SMTP server; the result reads like a webhook attempt's. */
export async function sendEmail(
  smtp: SmtpConfig,
  email: Email,
  timeoutMs: number,
): Promise<AttemptResult> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  try {
    const address = await checkedSmtpAddress(smtp.host);
    const transport = nodemailer.createTransport({
      host: address,
      port: smtp.port,
      secure: smtp.tls === "tls",
      requireTLS: smtp.tls === "starttls",
      ignoreTLS: smtp.tls === "none",
      // Certificates are checked against the name configured, not the address connected to.
      tls: { servername: net.isIP(smtp.host) ? undefined : smtp.host },
      auth: smtp.user ? { user: smtp.user, pass: smtp.password ?? "" } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    try {
      const info = await transport.sendMail({ from: smtp.from, ...email });
      // The SMTP server's reply code (250) stands where a webhook's HTTP status would.
      const code = Number(/^(\d{3})/.exec(info.response ?? "")?.[1] ?? 250);
      return { statusCode: code, latencyMs: latencyMs(), error: null, retryAfterMs: null };
    } finally {
      transport.close();
    }
  } catch (err) {
    const code = errorCode(err);
    if (UNRESOLVED_CODES.has(code ?? ""))
      return {
        statusCode: null,
        latencyMs: latencyMs(),
        error: `the host ${smtp.host} does not resolve (no such name in DNS)`,
        retryAfterMs: null,
        unresolved: true,
      };
    const message =
      err instanceof RefusedUrlError ? `refused: ${errorMessage(err)}` : errorMessage(err);
    const reply = errorField(err, "responseCode");
    return {
      statusCode: typeof reply === "number" && reply >= 400 ? reply : null,
      latencyMs: latencyMs(),
      error: `SMTP: ${message}`,
      retryAfterMs: null,
    };
  }
}
