import { z } from "zod";
import { seal, unseal } from "@/lib/config/encryption";
import { writeSetting } from "@/lib/db/settings";
import type { Db, Queryable } from "@/lib/db/types";
import { errorCode, errorMessage, errors, type FieldError } from "@/lib/errors";
import { checkWebhookUrl, RefusedUrlError, UNRESOLVED_CODES } from "@/lib/webhooks/ssrf";
import { type NotifySettingsInput, type NotifySettingsView, TLS_MODES } from "./schemas";
import { checkedSmtpAddress } from "./smtp-address";

// Where notifications go: an SMTP server (any: host, port, TLS mode, optional login) and a
// Slack-compatible incoming webhook. Saved by an administrator; the SMTP password and the Slack
// URL (itself a credential) are sealed at rest and never sent back.
const SETTINGS_KEY = "notifications";

const SavedSmtp = z.object({
  host: z.string(),
  port: z.number(),
  tls: z.enum(TLS_MODES),
  user: z.string().optional(),
  password_sealed: z.string().optional(),
  from: z.string(),
});
type SavedSmtp = z.infer<typeof SavedSmtp>;
const Saved = z.object({ smtp: SavedSmtp.optional(), slack_url_sealed: z.string().optional() });
type Saved = z.infer<typeof Saved>;

/** What the delivery worker needs to send: the password unsealed, only in memory. */
export type SmtpConfig = Omit<SavedSmtp, "password_sealed"> & { password?: string };

// Read inside a transaction (enqueue) as well as outside, hence a Queryable.
async function readSaved(q: Queryable): Promise<Saved> {
  const { rows } = await q.query(
    "SELECT value FROM settings WHERE key = $1",
    [SETTINGS_KEY],
    z.object({ value: Saved }),
  );
  return rows[0]?.value ?? {};
}

export async function describeNotifySettings(db: Db): Promise<NotifySettingsView> {
  const saved = await readSaved(db);
  const slackUrl = saved.slack_url_sealed ? unseal(saved.slack_url_sealed) : null;
  return {
    smtp: saved.smtp
      ? {
          host: saved.smtp.host,
          port: saved.smtp.port,
          tls: saved.smtp.tls,
          user: saved.smtp.user ?? null,
          from: saved.smtp.from,
          password_saved: Boolean(saved.smtp.password_sealed),
        }
      : null,
    // The host only: the path of an incoming-webhook URL is its secret.
    slack: { configured: Boolean(slackUrl), url_hint: slackUrl ? new URL(slackUrl).host : null },
  };
}

/** 400 when the SMTP host or the Slack URL is one this server may not call (the webhooks' guard). */
async function assertTargetsAllowed(input: NotifySettingsInput) {
  const problems: FieldError[] = [];
  const check = async (path: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      const code = errorCode(err) ?? "";
      const refused = err instanceof RefusedUrlError || UNRESOLVED_CODES.has(code);
      // A resolver that cannot be asked now says nothing about the name: each send checks again.
      if (!refused && code.startsWith("EAI_")) return;
      if (!refused) throw err;
      problems.push({
        path,
        // Said as a person would, not as the resolver's code (getaddrinfo ENOTFOUND …).
        message: UNRESOLVED_CODES.has(code)
          ? "this host does not resolve (no such name in DNS): check its spelling"
          : `refused: ${errorMessage(err)}`,
      });
    }
  };
  const smtp = input.smtp;
  if (smtp) await check("smtp.host", () => checkedSmtpAddress(smtp.host));
  const slack = input.slack_webhook_url;
  if (slack) await check("slack_webhook_url", () => checkWebhookUrl(slack));
  if (problems.length)
    throw errors.badRequest(problems.map((p) => `${p.path}: ${p.message}`).join("; "), problems);
}

export async function saveNotifySettings(db: Db, input: NotifySettingsInput) {
  await assertTargetsAllowed(input);
  const saved = await readSaved(db);
  const next: Saved = {};
  if (input.smtp) {
    const { password, user, ...rest } = input.smtp;
    // A password is kept only for the same login; a new user name without one means no password.
    const keep = saved.smtp?.password_sealed && saved.smtp.user === (user || undefined);
    const password_sealed = password
      ? seal(password)
      : keep
        ? saved.smtp?.password_sealed
        : undefined;
    next.smtp = {
      ...rest,
      ...(user ? { user } : {}),
      ...(password_sealed ? { password_sealed } : {}),
    };
  }
  const slack =
    input.slack_webhook_url === undefined
      ? saved.slack_url_sealed
      : input.slack_webhook_url && seal(input.slack_webhook_url);
  if (slack) next.slack_url_sealed = slack;
  await writeSetting(db, SETTINGS_KEY, next);
}

/** Which channels are set up, read in the caller's transaction (enqueue skips the others). */
export async function configuredChannels(q: Queryable) {
  const saved = await readSaved(q);
  return { email: Boolean(saved.smtp), slack: Boolean(saved.slack_url_sealed) };
}

export async function smtpConfig(db: Db): Promise<SmtpConfig | null> {
  const { smtp } = await readSaved(db);
  if (!smtp) return null;
  const { password_sealed, ...rest } = smtp;
  return { ...rest, ...(password_sealed ? { password: unseal(password_sealed) } : {}) };
}

export async function slackUrl(db: Db): Promise<string | null> {
  const { slack_url_sealed } = await readSaved(db);
  return slack_url_sealed ? unseal(slack_url_sealed) : null;
}
