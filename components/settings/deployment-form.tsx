"use client";

import type { ComponentProps, FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";
import { InputField } from "./kit/fields";

export type DeploymentFields = {
  name: string;
  base_url: string;
  token: string;
  webhook_secret: string;
};

/**
 * The deployment's fields, for adding one (token required) or editing one (token and secret are
 * write-only: left blank, the saved ones stay). The inputs are uncontrolled and read on submit,
 * so what someone types before the page's script has loaded is kept, not reset by hydration.
 */
export function DeploymentForm({
  idPrefix,
  label,
  initial,
  editing,
  busy,
  submitLabel,
  onSubmit,
  children,
}: {
  idPrefix: string;
  label: string;
  initial: DeploymentFields;
  editing: boolean;
  busy: boolean;
  submitLabel: string;
  onSubmit: (fields: DeploymentFields) => void;
  children?: React.ReactNode;
}) {
  const hydrated = useHydrated();
  const field = (name: keyof DeploymentFields) => ({
    id: `${idPrefix}-${name}`,
    name,
    defaultValue: initial[name],
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    onSubmit(readDeployment(new FormData(e.currentTarget)));
  };
  const keep = editing ? "Leave blank to keep the saved one." : undefined;
  return (
    <form method="post" onSubmit={submit} aria-label={label} className="grid gap-3 sm:grid-cols-2">
      <InputField
        {...field("name")}
        label="Name"
        required
        maxLength={100}
        placeholder="e.g. Research (staging)"
      />
      <InputField
        {...field("base_url")}
        label="Base URL"
        help={editing ? "Moving it to another host needs the token again." : undefined}
        type="url"
        required
        placeholder="e.g. https://crews.example.com/api/crews/research-brief"
      />
      <SecretField
        {...field("token")}
        label="Bearer token"
        help={keep ?? "Stored encrypted; never shown again."}
        required={!editing}
        placeholder={editing ? "•••••••• (saved)" : undefined}
      />
      <SecretField
        {...field("webhook_secret")}
        label="Webhook signing secret (optional)"
        help={keep ?? "With one, unsigned webhooks from the deployment are refused."}
        placeholder="e.g. whsec_…"
      />
      {children && <div className="sm:col-span-2">{children}</div>}
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button type="submit" variant="primary" disabled={busy || !hydrated}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** A secret typed in: hidden, and not offered to the browser's autofill. */
function SecretField(props: ComponentProps<typeof InputField>) {
  return <InputField {...props} type="password" autoComplete="off" />;
}

/** The form's fields as sent (an empty one as ""). */
function readDeployment(data: { get: (name: string) => unknown }): DeploymentFields {
  const read = (name: keyof DeploymentFields) => String(data.get(name) ?? "");
  return {
    name: read("name"),
    base_url: read("base_url"),
    token: read("token"),
    webhook_secret: read("webhook_secret"),
  };
}
