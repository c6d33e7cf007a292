import type { NotifySettingsView, TlsMode } from "@/lib/notify/schemas";

type SmtpValues = { host: string; port: string; user: string; password: string; from: string };

/** The form's SMTP fields as PUT /notify-settings takes them; a blank host turns e-mail off. */
export function smtpBody({ host, port, user, password, from }: SmtpValues, tls: TlsMode) {
  if (!host.trim()) return null;
  return {
    host: host.trim(),
    // Left empty: submission port 587, what most providers take.
    port: port.trim() ? Number(port) : 587,
    tls,
    user: user.trim() || undefined,
    password: password || undefined,
    from: from.trim(),
  };
}

/** The saved SMTP settings sent back unchanged (its password kept), with Slack removed. */
export function withoutSlack(saved: NotifySettingsView) {
  return {
    smtp: saved.smtp
      ? { ...saved.smtp, user: saved.smtp.user ?? undefined, password: undefined }
      : null,
    slack_webhook_url: null,
  };
}
