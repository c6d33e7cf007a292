import type { NotificationPrefs, NotifySettingsInput } from "@/lib/notify/schemas";
import { request, schema } from "./request";

// Notifications: where they go (administrators) and what each person wants to hear about.
export const notificationsApi = {
  settings: () => request(schema("NotifySettingsViewSchema"), "GET", "/api/settings/notifications"),
  saveSettings: (body: NotifySettingsInput) =>
    request(schema("NotifySettingsViewSchema"), "PUT", "/api/settings/notifications", body),
  sendTest: (to?: string) =>
    request(schema("TestEmailResultSchema"), "POST", "/api/settings/notifications/test", { to }),
  preferences: () => request(schema("NotificationPrefsSchema"), "GET", "/api/me/notifications"),
  savePreferences: (prefs: NotificationPrefs) =>
    request(schema("NotificationPrefsSchema"), "PUT", "/api/me/notifications", prefs),
};
