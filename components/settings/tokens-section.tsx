"use client";

import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { settingsApi } from "@/lib/api/client";
import {
  labelColumn,
  lastUsedColumn,
  prefixColumn,
  revokeColumn,
  useIssuedTokens,
} from "./issued-tokens";
import { type Column, DataTable } from "./kit/data-table";
import { InputField, SettingsForm, SubmitButton } from "./kit/fields";
import { Loading, Problem, SettingsSection } from "./kit/section";
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
  const [kind, setKind] = useState<"org" | "user">(isAdmin ? "org" : "user");
  const { query, form, created, create, revoke } = useIssuedTokens({
    key: "tokens",
    idPrefix: "token",
    list: settingsApi.tokens,
    create: (label) => settingsApi.createToken(kind, label),
    revoke: settingsApi.revokeToken,
  });
  const { data, error } = query;
  const columns: Column<TokenView>[] = [
    prefixColumn,
    {
      header: "Kind",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.kind === "org" ? "Organization" : `Personal · ${t.email ?? ""}`),
    },
    labelColumn,
    { header: "Created", cell: (t) => <RelativeTime iso={t.created_at} /> },
    lastUsedColumn,
    revokeColumn({
      name: (t) => `Revoke ${t.prefix}`,
      consequence: "Scripts using this token get 401 from now on.",
      onRevoke: revoke.mutateAsync,
    }),
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
            <Field id="token-kind" label="Kind" className="w-full sm:w-auto sm:min-w-72">
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
          {isAdmin || canHaveToken
            ? "Create one above to call the API from a script; it is shown once."
            : "Your role has no tokens of its own; an administrator can create one for scripts."}
        </EmptyState>
      )}
      {data && data.tokens.length > 0 && (
        <DataTable label="API tokens" columns={columns} rows={data.tokens} rowKey={(t) => t.id} />
      )}
    </SettingsSection>
  );
}
