"use client";

import type { ComponentProps } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import type { NotifySettingsView, TlsMode } from "@/lib/notify/schemas";
import { InputField, SettingsForm, SubmitButton } from "./kit/fields";
import { Problem } from "./kit/section";
import { type NotificationsFormState, useNotificationsForm } from "./use-notifications-form";

const TLS_LABELS: Record<TlsMode, string> = {
  none: "None (plain SMTP)",
  starttls: "STARTTLS",
  tls: "Implicit TLS (SMTPS)",
};
const isTls = (v: string): v is TlsMode => v in TLS_LABELS;

type SmtpInput = "host" | "port" | "from" | "user" | "password";
/** The SMTP server's inputs but their ids and values, which each takes from its field. */
const SMTP_INPUTS: Record<SmtpInput, Omit<ComponentProps<typeof InputField>, "id">> = {
  host: {
    label: "SMTP host",
    help: "Leave blank to send no e-mail.",
    placeholder: "e.g. smtp.example.com",
    autoComplete: "off",
  },
  port: {
    label: "Port",
    type: "number",
    min: 1,
    max: 65535,
    placeholder: "587",
    help: "Left empty: 587, the submission port most providers take.",
  },
  from: { label: "From address", type: "email", placeholder: "e.g. crewdeck@example.com" },
  user: {
    label: "User name",
    help: "Leave blank if the server needs no login.",
    autoComplete: "off",
  },
  password: {
    label: "Password",
    help: "Stored encrypted; never shown again. Leave blank to keep the saved one.",
    type: "password",
    autoComplete: "new-password",
  },
};

/** The SMTP server and the Slack webhook, as saved; secrets are typed anew or left blank. */
export function NotificationsForm({
  saved,
  onSaved,
}: {
  saved: NotifySettingsView;
  onSaved: (view: NotifySettingsView) => void;
}) {
  const form = useNotificationsForm(saved, onSaved);
  const { save, removeSlack, test } = form;
  return (
    <SettingsForm onSubmit={form.submit} className="grid gap-4" aria-label="Notification settings">
      <SmtpFields form={form} saved={saved} />
      <SlackField form={form} saved={saved} />
      <div className="flex flex-wrap gap-2">
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save
        </SubmitButton>
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
      <Problem errors={[save.error, test.error, removeSlack.error]} />
    </SettingsForm>
  );
}

type Props = { form: NotificationsFormState; saved: NotifySettingsView };

function SmtpFields({ form, saved }: Props) {
  const input = (name: SmtpInput) => (
    <InputField {...SMTP_INPUTS[name]} {...form.smtp.bind(name)} />
  );
  return (
    <fieldset className="grid items-start gap-3 sm:grid-cols-2">
      <legend className="mb-2 font-medium text-sm">E-mail (SMTP)</legend>
      {input("host")}
      {input("port")}
      <Field id="smtp-tls" label="TLS">
        <Select
          id="smtp-tls"
          value={form.tls}
          onChange={(e) => isTls(e.target.value) && form.setTls(e.target.value)}
        >
          {Object.entries(TLS_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </Field>
      {input("from")}
      {input("user")}
      <InputField
        {...SMTP_INPUTS.password}
        placeholder={saved.smtp?.password_saved ? "Saved; type to replace" : ""}
        {...form.smtp.bind("password")}
      />
    </fieldset>
  );
}

function SlackField({ form, saved }: Props) {
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 font-medium text-sm">Slack</legend>
      <InputField
        id="slack-url"
        label="Incoming-webhook URL"
        help={
          saved.slack.configured
            ? `Saved (${saved.slack.url_hint}); type to replace. Stored encrypted.`
            : "A Slack-compatible incoming webhook for the team channel. Stored encrypted."
        }
        type="url"
        value={form.slack}
        onChange={(e) => form.setSlack(e.target.value)}
        placeholder="e.g. https://hooks.slack.com/services/…"
        autoComplete="off"
      />
    </fieldset>
  );
}
