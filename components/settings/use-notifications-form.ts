"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { notificationsApi } from "@/lib/api/client";
import type { NotifySettingsView, TlsMode } from "@/lib/notify/schemas";
import { useFields } from "./kit/fields";
import { smtpBody, withoutSlack } from "./notify-body";

/** The notification settings as typed, and saving, testing and removing Slack. */
export function useNotificationsForm(
  saved: NotifySettingsView,
  onSaved: (view: NotifySettingsView) => void,
) {
  const smtp = useFields("smtp", {
    host: saved.smtp?.host ?? "",
    port: saved.smtp?.port ? String(saved.smtp.port) : "",
    user: saved.smtp?.user ?? "",
    password: "",
    from: saved.smtp?.from ?? "",
  });
  const [tls, setTls] = useState<TlsMode>(saved.smtp?.tls ?? "starttls");
  const [slack, setSlack] = useState("");
  const save = useMutation({
    mutationFn: () =>
      notificationsApi.saveSettings({
        smtp: smtpBody(smtp.values, tls),
        ...(slack.trim() ? { slack_webhook_url: slack.trim() } : {}),
      }),
    onSuccess: (view) => {
      smtp.set("password", "");
      setSlack("");
      onSaved(view);
    },
  });
  const removeSlack = useMutation({
    mutationFn: () => notificationsApi.saveSettings(withoutSlack(saved)),
    onSuccess: onSaved,
  });
  const test = useMutation({ mutationFn: () => notificationsApi.sendTest() });
  const submit = () => {
    test.reset();
    save.mutate();
  };
  return { smtp, tls, setTls, slack, setSlack, save, removeSlack, test, submit };
}

export type NotificationsFormState = ReturnType<typeof useNotificationsForm>;
