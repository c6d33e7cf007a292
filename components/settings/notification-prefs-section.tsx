"use client";

import { useMutation } from "@tanstack/react-query";
import { Checkbox } from "@/components/ui/input";
import { notificationsApi } from "@/lib/api/client";
import type { Channel, NotificationPrefs, NotifyEvent } from "@/lib/notify/schemas";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

const EVENTS: { id: NotifyEvent; label: string }[] = [
  { id: "review_waiting", label: "A review is waiting for me" },
  { id: "review_reminder", label: "Reminder of a review still waiting" },
  { id: "review_escalation", label: "A review escalated to me" },
  { id: "run_outcome", label: "A run I started finished" },
];
const CHANNEL_LABELS: Record<Channel, string> = { email: "E-mail", slack: "Slack" };

/** Which events reach the person signed in, by which channel; each change is saved at once. */
export function NotificationPrefsSection() {
  const { query, replace } = useSettingsQuery(["notification-prefs"], notificationsApi.preferences);
  const { data, error } = query;
  const save = useMutation({ mutationFn: notificationsApi.savePreferences, onSuccess: replace });
  const toggle = (prefs: NotificationPrefs, event: NotifyEvent, channel: Channel) =>
    save.mutate({ ...prefs, [event]: { ...prefs[event], [channel]: !prefs[event][channel] } });
  return (
    <SettingsSection
      id="notify-prefs"
      title="My notifications"
      description="What reaches you, and where. Slack messages go to the team's channel and name you."
      gap="gap-3"
    >
      <Loading query={query} className="h-40" />
      {data && (
        <table className="w-full max-w-xl text-sm">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th scope="col" className="py-1.5 font-medium">
                Event
              </th>
              {Object.values(CHANNEL_LABELS).map((label) => (
                <th key={label} scope="col" className="w-20 py-1.5 text-center font-medium">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {EVENTS.map((e) => (
              <tr key={e.id} className="border-t">
                <th scope="row" className="py-2 text-left font-normal">
                  {e.label}
                </th>
                {(Object.keys(CHANNEL_LABELS) as Channel[]).map((channel) => (
                  <td key={channel} className="py-2 text-center">
                    <Checkbox
                      aria-label={`${e.label}: ${CHANNEL_LABELS[channel]}`}
                      checked={data[e.id][channel]}
                      disabled={save.isPending}
                      onChange={() => toggle(data, e.id, channel)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Problem errors={[error, save.error]} />
    </SettingsSection>
  );
}
