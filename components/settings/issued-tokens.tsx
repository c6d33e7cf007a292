"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Column } from "./kit/data-table";
import { ConfirmButton } from "./kit/dialogs";
import { useFields } from "./kit/fields";
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

export const prefixColumn: Column<IssuedToken> = {
  header: "Token",
  cell: (t) => <code className="whitespace-nowrap font-mono text-xs">{t.prefix}</code>,
};

export const labelColumn: Column<IssuedToken> = {
  header: "Label",
  cell: (t) => t.label ?? <Missing />,
};

export const lastUsedColumn: Column<IssuedToken> = {
  header: "Last used",
  cell: (t) => (t.last_used_at ? <RelativeTime iso={t.last_used_at} /> : <Missing>Never</Missing>),
};

/** Revoked, or a Revoke button that asks first. */
export function revokeColumn({
  name,
  consequence,
  onRevoke,
}: {
  /** The button's accessible name for a token. */
  name: (t: IssuedToken) => string;
  consequence: string;
  onRevoke: (id: string) => Promise<unknown>;
}): Column<IssuedToken> {
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
