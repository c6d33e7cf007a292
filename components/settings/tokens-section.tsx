"use client";

import { useMutation } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { settingsApi } from "@/lib/api/client";
import { type Column, DataTable } from "./kit/data-table";
import { ConfirmButton } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { Loading, Missing, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";
import { SecretOnce } from "./secret-once";

type TokenView = Awaited<ReturnType<typeof settingsApi.tokens>>["tokens"][number];

/** API tokens: created here, shown once with a copy button, listed with last use, revocable. */
export function TokensSection({
  isAdmin,
  canHaveToken,
}: {
  isAdmin: boolean;
  canHaveToken: boolean;
}) {
  const { query, refresh } = useSettingsQuery(["tokens"], settingsApi.tokens);
  const { data, error } = query;
  const [kind, setKind] = useState<"org" | "user">(isAdmin ? "org" : "user");
  const form = useFields("token", { label: "" });
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => settingsApi.createToken(kind, form.values.label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      form.reset();
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: settingsApi.revokeToken, onSuccess: refresh });
  const columns: Column<TokenView>[] = [
    {
      header: "Token",
      cell: (t) => <code className="whitespace-nowrap font-mono text-xs">{t.prefix}</code>,
    },
    {
      header: "Kind",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.kind === "org" ? "Organization" : `Personal · ${t.email ?? ""}`),
    },
    { header: "Label", cell: (t) => t.label ?? <Missing /> },
    { header: "Created", cell: (t) => <RelativeTime iso={t.created_at} /> },
    {
      header: "Last used",
      cell: (t) =>
        t.last_used_at ? <RelativeTime iso={t.last_used_at} /> : <Missing>Never</Missing>,
    },
    {
      header: "Actions",
      hideHeader: true,
      cellClassName: "text-right",
      cell: (t) =>
        t.revoked_at ? (
          <Badge tone="neutral">Revoked</Badge>
        ) : (
          <ConfirmButton
            label={`Revoke ${t.prefix}`}
            title={`Revoke ${t.prefix}?`}
            description="Scripts using this token get 401 from now on. This cannot be undone."
            confirmLabel="Revoke token"
            onConfirm={() => revoke.mutateAsync(t.id)}
          >
            Revoke
          </ConfirmButton>
        ),
    },
  ];
  return (
    <SettingsSection
      id="tokens"
      title="API tokens"
      description={
        <>
          Bearer tokens for scripts and CI:{" "}
          <code className="font-mono">Authorization: Bearer …</code>
        </>
      }
    >
      {(isAdmin || canHaveToken) && (
        <SettingsForm onSubmit={() => create.mutate()} className="flex flex-wrap items-end gap-3">
          {isAdmin && (
            <Field id="token-kind" label="Kind" className="w-full sm:w-72">
              <Select
                id="token-kind"
                value={kind}
                onChange={(e) => setKind(e.target.value === "user" ? "user" : "org")}
              >
                <option value="org">Organization (every crew, every run)</option>
                <option value="user">Personal (my runs only)</option>
              </Select>
            </Field>
          )}
          <InputField
            label="Label"
            fieldClassName="w-full sm:w-64"
            maxLength={100}
            placeholder="e.g. CI pipeline"
            {...form.bind("label")}
          />
          <SubmitButton busy={create.isPending} busyLabel="Creating…">
            Create token
          </SubmitButton>
        </SettingsForm>
      )}
      <Problem errors={[create.error]} title="The token was not created" />
      {created && <SecretOnce secret={created} what="token" testId="new-token" />}
      <Problem errors={[error]} title="Tokens could not be loaded">
        {" "}
        Reload the page to try again.
      </Problem>
      {revoke.error && <Alert tone="danger">{revoke.error.message}</Alert>}
      <Loading query={query} className="h-24" />
      {data && data.tokens.length === 0 && (
        <EmptyState icon={KeyRound} title="No tokens yet">
          Create one above to call the API from a script; it is shown once.
        </EmptyState>
      )}
      {data && data.tokens.length > 0 && (
        <DataTable label="API tokens" columns={columns} rows={data.tokens} rowKey={(t) => t.id} />
      )}
    </SettingsSection>
  );
}
