import dns from "node:dns";
import net from "node:net";
import nodemailer from "nodemailer";
import type { AttemptResult } from "@/lib/webhooks/deliver";
import { RefusedUrlError, refusalReason, UNRESOLVED_CODES } from "@/lib/webhooks/ssrf";
import type { SmtpConfig } from "./settings";

export type Email = { to: string; subject: string; text: string; html: string };

/**
 * The address to connect to for `host`, checked by the webhooks' SSRF guard (the same rules and
 * WEBHOOK_ALLOWED_NETWORKS): every address the name resolves to must be allowed, and the one
 * connected to is the one checked, so a name re-pointed in between cannot slip through.
 */
export async function checkedSmtpAddress(host: string): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (net.isIP(bare)) {
    const reason = refusalReason(bare);
    if (reason) throw new RefusedUrlError(reason);
    return bare;
  }
  const addresses = await dns.promises.lookup(bare, { all: true });
  for (const a of addresses) {
    const reason = refusalReason(a.address);
    if (reason) throw new RefusedUrlError(`${bare} resolves to ${reason}`);
  }
  const first = addresses[0];
  if (!first) throw new Error(`${bare} has no address`);
  return first.address;
}

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
    const e = err as NodeJS.ErrnoException & { responseCode?: number };
    if (UNRESOLVED_CODES.has(e.code ?? ""))
      return {
        statusCode: null,
        latencyMs: latencyMs(),
        error: `the host ${smtp.host} does not resolve (${e.code})`,
        retryAfterMs: null,
        unresolved: true,
      };
    const message = err instanceof RefusedUrlError ? `refused: ${e.message}` : e.message;
    return {
      statusCode: e.responseCode && e.responseCode >= 400 ? e.responseCode : null,
      latencyMs: latencyMs(),
      error: `SMTP: ${message}`,
      retryAfterMs: null,
    };
  }
}
