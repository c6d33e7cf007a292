import type { NotificationPrefs, NotifySettingsInput } from "@/lib/notify/schemas";
import { contract, request } from "./request";

const notifySchemas = contract(() => import("@/lib/notify/schemas"));

// Notifications: where they go (administrators) and what each person wants to hear about.
export const notificationsApi = {
  settings: () =>
    request(notifySchemas("NotifySettingsViewSchema"), "GET", "/api/settings/notifications"),
  saveSettings: (body: NotifySettingsInput) =>
    request(notifySchemas("NotifySettingsViewSchema"), "PUT", "/api/settings/notifications", body),
  sendTest: (to?: string) =>
    request(notifySchemas("TestEmailResultSchema"), "POST", "/api/settings/notifications/test", {
      to,
    }),
  preferences: () =>
    request(notifySchemas("NotificationPrefsSchema"), "GET", "/api/me/notifications"),
  savePreferences: (prefs: NotificationPrefs) =>
    request(notifySchemas("NotificationPrefsSchema"), "PUT", "/api/me/notifications", prefs),
};
