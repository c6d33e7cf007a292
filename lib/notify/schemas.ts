import { z } from "zod";

// The notification API's shapes (zod only: the dashboard's client loads them too).

export const NOTIFY_EVENTS = [
  "review_waiting",
  "review_reminder",
  "review_escalation",
  "run_outcome",
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];
export const CHANNELS = ["email", "slack"] as const;
export type Channel = (typeof CHANNELS)[number];

const ChannelChoiceSchema = z.object({ email: z.boolean(), slack: z.boolean() }).strict();
export const NotificationPrefsSchema = z
  .object({
    review_waiting: ChannelChoiceSchema,
    review_reminder: ChannelChoiceSchema,
    review_escalation: ChannelChoiceSchema,
    run_outcome: ChannelChoiceSchema.describe("Only ever sent to the person who started the run"),
  })
  .strict()
  .meta({ id: "NotificationPreferences" });
export type NotificationPrefs = z.infer<typeof NotificationPrefsSchema>;

export const TLS_MODES = ["none", "starttls", "tls"] as const;
export type TlsMode = (typeof TLS_MODES)[number];

export const SmtpInputSchema = z.object({
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  tls: z.enum(TLS_MODES).describe("none, STARTTLS (upgrade after connecting) or implicit TLS"),
  user: z.string().trim().max(320).optional(),
  password: z.string().min(1).max(500).optional().describe("Leave out to keep the saved password"),
  from: z.email("must be an email address"),
});

export const NotifySettingsInputSchema = z
  .object({
    smtp: SmtpInputSchema.nullable().describe("null turns e-mail off"),
    slack_webhook_url: z
      .url()
      .max(2000)
      .nullable()
      .optional()
      .describe("Leave out to keep the saved URL; null removes it"),
  })
  .meta({ id: "NotificationSettingsInput" });
export type NotifySettingsInput = z.infer<typeof NotifySettingsInputSchema>;

export const NotifySettingsViewSchema = z
  .object({
    smtp: z
      .object({
        host: z.string(),
        port: z.number(),
        tls: z.enum(TLS_MODES),
        user: z.string().nullable(),
        from: z.string(),
        password_saved: z.boolean(),
      })
      .nullable(),
    slack: z.object({ configured: z.boolean(), url_hint: z.string().nullable() }),
  })
  .meta({ id: "NotificationSettings" });
export type NotifySettingsView = z.infer<typeof NotifySettingsViewSchema>;

export const TestEmailRequestSchema = z
  .object({ to: z.email("must be an email address").optional().describe("Yourself unless said") })
  .meta({ id: "TestEmailRequest" });
export const TestEmailResultSchema = z
  .object({ ok: z.boolean(), to: z.string(), error: z.string().nullable() })
  .meta({ id: "TestEmailResult" });
