"use client";

import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";

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
    const data = new FormData(e.currentTarget);
    const read = (name: keyof DeploymentFields) => String(data.get(name) ?? "");
    onSubmit({
      name: read("name"),
      base_url: read("base_url"),
      token: read("token"),
      webhook_secret: read("webhook_secret"),
    });
  };
  const keep = editing ? "Leave blank to keep the saved one." : undefined;
  return (
    <form method="post" onSubmit={submit} aria-label={label} className="grid gap-3 sm:grid-cols-2">
      <Field id={`${idPrefix}-name`} label="Name">
        <Input {...field("name")} required maxLength={100} placeholder="Research (staging)" />
      </Field>
      <Field
        id={`${idPrefix}-base_url`}
        label="Base URL"
        help={editing ? "Moving it to another host needs the token again." : undefined}
      >
        <Input
          {...field("base_url")}
          type="url"
          required
          aria-describedby={editing ? `${idPrefix}-base_url-help` : undefined}
          placeholder="https://crews.example.com/api/crews/research-brief"
        />
      </Field>
      <Field
        id={`${idPrefix}-token`}
        label="Bearer token"
        help={keep ?? "Stored encrypted; never shown again."}
      >
        <Input
          {...field("token")}
          type="password"
          autoComplete="off"
          required={!editing}
          aria-describedby={`${idPrefix}-token-help`}
          placeholder={editing ? "•••••••• (saved)" : undefined}
        />
      </Field>
      <Field
        id={`${idPrefix}-webhook_secret`}
        label="Webhook signing secret (optional)"
        help={keep ?? "With one, unsigned webhooks from the deployment are refused."}
      >
        <Input
          {...field("webhook_secret")}
          type="password"
          autoComplete="off"
          aria-describedby={`${idPrefix}-webhook_secret-help`}
          placeholder="whsec_…"
        />
      </Field>
      {children && <div className="sm:col-span-2">{children}</div>}
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button type="submit" variant="primary" disabled={busy || !hydrated}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
