"use client";

import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { Options } from "@/components/ui/options";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Column } from "./kit/data-table";
import { ConfirmButton } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { Missing } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

// What API tokens and integration tokens have in common: a list, a labelled create form whose
// new secret is shown once, and revocation.

type IssuedToken = {
  id: string;
  prefix: string;
  label: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** The list, the label field, the token just created (shown once) and create / revoke. */
export function useIssuedTokens<L extends { tokens: IssuedToken[] }>({
  key,
  idPrefix,
  list,
  create,
  revoke,
}: {
  key: string;
  /** The label field's id is `${idPrefix}-label`. */
  idPrefix: string;
  list: () => Promise<L>;
  create: (label: string | undefined) => Promise<{ token: string }>;
  revoke: (id: string) => Promise<unknown>;
}) {
  const { query, refresh } = useSettingsQuery([key], list);
  const form = useFields(idPrefix, { label: "" });
  const [created, setCreated] = useState<string | null>(null);
  const createToken = useMutation({
    mutationFn: () => create(form.values.label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      form.reset();
      refresh();
    },
  });
  const revokeToken = useMutation({ mutationFn: revoke, onSuccess: refresh });
  return { query, form, created, create: createToken, revoke: revokeToken };
}

const prefixColumn: Column<IssuedToken> = {
  header: "Token",
  cell: (t) => <code className="whitespace-nowrap font-mono text-xs">{t.prefix}</code>,
};

const labelColumn: Column<IssuedToken> = {
  header: "Label",
  cell: (t) => t.label ?? <Missing />,
};

const lastUsedColumn: Column<IssuedToken> = {
  header: "Last used",
  cell: (t) => (t.last_used_at ? <RelativeTime iso={t.last_used_at} /> : <Missing>Never</Missing>),
};

type Revoke = {
  /** The button's accessible name for a token. */
  name: (t: IssuedToken) => string;
  consequence: string;
  onRevoke: (id: string) => Promise<unknown>;
};

/** Revoked, or a Revoke button that asks first. */
function revokeColumn({ name, consequence, onRevoke }: Revoke): Column<IssuedToken> {
  return {
    header: "Actions",
    hideHeader: true,
    cellClassName: "text-right",
    cell: (t) =>
      t.revoked_at ? (
        <Badge tone="neutral">Revoked</Badge>
      ) : (
        <ConfirmButton
          label={name(t)}
          title={`Revoke ${t.prefix}?`}
          description={`${consequence} This cannot be undone.`}
          confirmLabel="Revoke token"
          onConfirm={() => onRevoke(t.id)}
        >
          Revoke
        </ConfirmButton>
      ),
  };
}

/** The columns every issued token has: `kind` after its prefix, `extra` before its last use. */
export function tokenColumns<T extends IssuedToken>({
  kind,
  extra = [],
  revoke,
}: {
  kind: Column<T>;
  extra?: Column<T>[];
  revoke: Revoke;
}): Column<T>[] {
  return [prefixColumn, kind, labelColumn, ...extra, lastUsedColumn, revokeColumn(revoke)];
}

type Choice<K extends string> = {
  id: string;
  label: string;
  className: string;
  value: K;
  set: (value: K) => void;
  options: readonly { value: K; label: string }[];
};

/** The create form: an optional choice (access, kind), the label, and the create button. */
export function IssueTokenForm<K extends string>({
  choice,
  label,
  placeholder,
  form,
  create,
  busyLabel,
  children,
}: {
  choice: Choice<K> | false;
  label: string;
  placeholder: string;
  form: ReturnType<typeof useIssuedTokens>["form"];
  create: { mutate: () => void; isPending: boolean };
  busyLabel?: string;
  children: ReactNode;
}) {
  return (
    <SettingsForm onSubmit={() => create.mutate()} className="flex flex-wrap items-end gap-3">
      {choice && (
        <Field id={choice.id} label={choice.label} className={choice.className}>
          <Select
            id={choice.id}
            value={choice.value}
            onChange={(e) => {
              const picked = choice.options.find((o) => o.value === e.target.value);
              if (picked) choice.set(picked.value);
            }}
          >
            <Options options={choice.options} />
          </Select>
        </Field>
      )}
      <InputField
        label={label}
        fieldClassName="w-full sm:w-64"
        maxLength={100}
        placeholder={placeholder}
        {...form.bind("label")}
      />
      <SubmitButton busy={create.isPending} busyLabel={busyLabel}>
        {children}
      </SubmitButton>
    </SettingsForm>
  );
}
