"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input, Select } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { notificationsApi } from "@/lib/api/client";
import type { NotifySettingsView, TlsMode } from "@/lib/notify/schemas";

const TLS_LABELS: Record<TlsMode, string> = {
  none: "None (plain SMTP)",
  starttls: "STARTTLS",
  tls: "Implicit TLS (SMTPS)",
};

/** Where notifications go: the SMTP server for e-mail and a Slack incoming webhook (admins). */
export function NotificationsSection() {
  const { data, error } = useQuery({
    queryKey: ["notification-settings"],
    queryFn: notificationsApi.settings,
  });
  return (
    <Card aria-labelledby="notify-settings-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="notify-settings-title">E-mail and Slack</CardTitle>
          <CardDescription>
            Reviews waiting, reminders, escalations and run outcomes reach people through these.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4 [&>*]:min-w-0">
        {!data && !error && <Skeleton className="h-64" />}
        {error && <Alert tone="danger">{error.message}</Alert>}
        {data && <NotificationsForm saved={data} />}
      </CardContent>
    </Card>
  );
}

function NotificationsForm({ saved }: { saved: NotifySettingsView }) {
  const qc = useQueryClient();
  const [host, setHost] = useState(saved.smtp?.host ?? "");
  const [port, setPort] = useState(String(saved.smtp?.port ?? 587));
  const [tls, setTls] = useState<TlsMode>(saved.smtp?.tls ?? "starttls");
  const [user, setUser] = useState(saved.smtp?.user ?? "");
  const [password, setPassword] = useState("");
  const [from, setFrom] = useState(saved.smtp?.from ?? "");
  const [slack, setSlack] = useState("");
  const save = useMutation({
    mutationFn: () =>
      notificationsApi.saveSettings({
        // A blank host turns e-mail off.
        smtp: host.trim()
          ? {
              host: host.trim(),
              port: Number(port),
              tls,
              user: user.trim() || undefined,
              password: password || undefined,
              from: from.trim(),
            }
          : null,
        ...(slack.trim() ? { slack_webhook_url: slack.trim() } : {}),
      }),
    onSuccess: (view) => {
      setPassword("");
      setSlack("");
      qc.setQueryData(["notification-settings"], view);
    },
  });
  const removeSlack = useMutation({
    mutationFn: () =>
      notificationsApi.saveSettings({
        smtp: saved.smtp
          ? { ...saved.smtp, user: saved.smtp.user ?? undefined, password: undefined }
          : null,
        slack_webhook_url: null,
      }),
    onSuccess: (view) => qc.setQueryData(["notification-settings"], view),
  });
  const test = useMutation({ mutationFn: () => notificationsApi.sendTest() });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    test.reset();
    save.mutate();
  };
  const problem = save.error ?? test.error ?? removeSlack.error;
  return (
    <form method="post" onSubmit={submit} className="grid gap-4" aria-label="Notification settings">
      <fieldset className="grid items-start gap-3 sm:grid-cols-2">
        <legend className="mb-2 font-medium text-sm">E-mail (SMTP)</legend>
        <Field id="smtp-host" label="SMTP host" help="Leave blank to send no e-mail.">
          <Input
            id="smtp-host"
            aria-describedby="smtp-host-help"
            value={host}
            onChange={(e) => setHost(e.target.value)}
            placeholder="smtp.example.com"
            autoComplete="off"
          />
        </Field>
        <Field id="smtp-port" label="Port">
          <Input
            id="smtp-port"
            type="number"
            min={1}
            max={65535}
            value={port}
            onChange={(e) => setPort(e.target.value)}
          />
        </Field>
        <Field id="smtp-tls" label="TLS">
          <Select id="smtp-tls" value={tls} onChange={(e) => setTls(e.target.value as TlsMode)}>
            {Object.entries(TLS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="smtp-from" label="From address">
          <Input
            id="smtp-from"
            type="email"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            placeholder="crewdeck@example.com"
          />
        </Field>
        <Field id="smtp-user" label="User name" help="Leave blank if the server needs no login.">
          <Input
            id="smtp-user"
            aria-describedby="smtp-user-help"
            value={user}
            onChange={(e) => setUser(e.target.value)}
            autoComplete="off"
          />
        </Field>
        <Field
          id="smtp-password"
          label="Password"
          help="Stored encrypted; never shown again. Leave blank to keep the saved one."
        >
          <Input
            id="smtp-password"
            type="password"
            aria-describedby="smtp-password-help"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            placeholder={saved.smtp?.password_saved ? "Saved; type to replace" : ""}
          />
        </Field>
      </fieldset>
      <fieldset className="grid gap-3">
        <legend className="mb-2 font-medium text-sm">Slack</legend>
        <Field
          id="slack-url"
          label="Incoming-webhook URL"
          help={
            saved.slack.configured
              ? `Saved (${saved.slack.url_hint}); type to replace. Stored encrypted.`
              : "A Slack-compatible incoming webhook for the team channel. Stored encrypted."
          }
        >
          <Input
            id="slack-url"
            type="url"
            aria-describedby="slack-url-help"
            value={slack}
            onChange={(e) => setSlack(e.target.value)}
            placeholder="https://hooks.slack.com/services/…"
            autoComplete="off"
          />
        </Field>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </Button>
        <Button
          onClick={() => test.mutate()}
          disabled={test.isPending || !saved.smtp}
          title={saved.smtp ? undefined : "Save the SMTP settings first"}
        >
          {test.isPending ? "Sending…" : "Send test e-mail"}
        </Button>
        {saved.slack.configured && (
          <Button onClick={() => removeSlack.mutate()} disabled={removeSlack.isPending}>
            Remove Slack
          </Button>
        )}
      </div>
      {save.isSuccess && <Alert tone="success">Saved.</Alert>}
      {test.data?.ok && <Alert tone="success">Test e-mail sent to {test.data.to}.</Alert>}
      {test.data && !test.data.ok && (
        <Alert tone="danger" title="The test e-mail was not sent">
          {test.data.error}
        </Alert>
      )}
      {problem && <Alert tone="danger">{problem.message}</Alert>}
    </form>
  );
}
