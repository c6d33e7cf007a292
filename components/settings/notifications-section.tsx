"use client";

import { notificationsApi } from "@/lib/api/client";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";
import { NotificationsForm } from "./notifications-form";

/** Where notifications go: the SMTP server for e-mail and a Slack incoming webhook (admins). */
export function NotificationsSection() {
  const { query, replace } = useSettingsQuery(["notification-settings"], notificationsApi.settings);
  return (
    <SettingsSection
      id="notify-settings"
      title="E-mail and Slack"
      description="Reviews waiting, reminders, escalations and run outcomes reach people through these."
    >
      <Loading query={query} className="h-64" />
      <Problem errors={[query.error]} />
      {query.data && <NotificationsForm saved={query.data} onSaved={replace} />}
    </SettingsSection>
  );
}
