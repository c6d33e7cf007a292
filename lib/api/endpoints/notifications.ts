import {
  NotificationPrefsSchema,
  NotifySettingsInputSchema,
  NotifySettingsViewSchema,
  TestEmailRequestSchema,
  TestEmailResultSchema,
} from "@/lib/notify/schemas";
import { endpoint } from "./endpoint";
import { admin, INVALID_BODY, setting } from "./shared";

// Notifications: where they go (SMTP, Slack; administrators) and what each person wants to hear.
const tag = "Notifications";

const settings = setting("/api/settings/notifications", {
  tag,
  access: admin,
  view: NotifySettingsViewSchema,
});

export const notificationSettings = settings.get({
  operationId: "notificationSettings",
  summary: "The SMTP server and Slack webhook notifications go through (never the secrets)",
});

export const saveNotificationSettings = settings.save({
  operationId: "saveNotificationSettings",
  summary: "Save the SMTP server and the Slack incoming-webhook URL",
  description:
    "The SMTP password and the Slack URL are sealed at rest and never sent back. The host and the URL must pass the webhooks' address check (WEBHOOK_ALLOWED_NETWORKS).",
  body: { schema: NotifySettingsInputSchema, limit: 16 * 1024 },
  problems: { 400: "Malformed JSON, or a host or URL this server may not call." },
});

export const sendTestEmail = endpoint({
  method: "POST",
  path: "/api/settings/notifications/test",
  operationId: "sendTestEmail",
  tag,
  summary: "Send a test e-mail now with the saved SMTP settings",
  access: admin,
  body: { schema: TestEmailRequestSchema, limit: 4 * 1024 },
  responses: {
    200: { description: "Whether the server took it.", schema: TestEmailResultSchema },
  },
  problems: { ...INVALID_BODY, 409: "No SMTP settings saved yet." },
});

export const myNotificationPreferences = endpoint({
  method: "GET",
  path: "/api/me/notifications",
  operationId: "myNotificationPreferences",
  tag,
  summary: "Which events reach you, by e-mail and by Slack",
  access: { action: "read", personOnly: true },
  responses: { 200: { description: "OK", schema: NotificationPrefsSchema } },
});

export const saveMyNotificationPreferences = endpoint({
  method: "PUT",
  path: "/api/me/notifications",
  operationId: "saveMyNotificationPreferences",
  tag,
  summary: "Choose which events reach you, by e-mail and by Slack",
  access: { action: "read", inside: "self", personOnly: true },
  body: { schema: NotificationPrefsSchema, limit: 4 * 1024 },
  responses: { 200: { description: "Saved.", schema: NotificationPrefsSchema } },
  problems: INVALID_BODY,
});
