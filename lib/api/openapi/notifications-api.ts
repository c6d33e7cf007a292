import {
  NotificationPrefsSchema,
  NotifySettingsInputSchema,
  NotifySettingsViewSchema,
  TestEmailRequestSchema,
  TestEmailResultSchema,
} from "@/lib/notify/schemas";
import type { OperationSpec } from "./operations";

// Notifications: where they go (SMTP, Slack; administrators) and what each person wants to hear.
const tag = "Notifications";
const invalid = {
  400: "Malformed JSON or not an object.",
  413: "Body too large.",
  422: "Invalid fields (`errors`).",
};

export const notificationsApi: OperationSpec[] = [
  {
    method: "get",
    path: "/api/settings/notifications",
    operationId: "notificationSettings",
    tag,
    summary: "The SMTP server and Slack webhook notifications go through (never the secrets)",
    access: { action: "admin" },
    responses: { 200: { description: "OK", schema: NotifySettingsViewSchema } },
  },
  {
    method: "put",
    path: "/api/settings/notifications",
    operationId: "saveNotificationSettings",
    tag,
    summary: "Save the SMTP server and the Slack incoming-webhook URL",
    description:
      "The SMTP password and the Slack URL are sealed at rest and never sent back. The host and the URL must pass the webhooks' address check (WEBHOOK_ALLOWED_NETWORKS).",
    access: { action: "admin" },
    body: { schema: NotifySettingsInputSchema },
    responses: { 200: { description: "Saved.", schema: NotifySettingsViewSchema } },
    problems: { ...invalid, 400: "Malformed JSON, or a host or URL this server may not call." },
  },
  {
    method: "post",
    path: "/api/settings/notifications/test",
    operationId: "sendTestEmail",
    tag,
    summary: "Send a test e-mail now with the saved SMTP settings",
    access: { action: "admin" },
    body: { schema: TestEmailRequestSchema, required: false },
    responses: {
      200: { description: "Whether the server took it.", schema: TestEmailResultSchema },
    },
    problems: { ...invalid, 409: "No SMTP settings saved yet." },
  },
  {
    method: "get",
    path: "/api/me/notifications",
    operationId: "myNotificationPreferences",
    tag,
    summary: "Which events reach you, by e-mail and by Slack",
    access: { action: "read", personOnly: true },
    responses: { 200: { description: "OK", schema: NotificationPrefsSchema } },
  },
  {
    method: "put",
    path: "/api/me/notifications",
    operationId: "saveMyNotificationPreferences",
    tag,
    summary: "Choose which events reach you, by e-mail and by Slack",
    access: { action: "read", personOnly: true },
    body: { schema: NotificationPrefsSchema },
    responses: { 200: { description: "Saved.", schema: NotificationPrefsSchema } },
    problems: invalid,
  },
];
