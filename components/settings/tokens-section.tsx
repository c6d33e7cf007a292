"use client";

import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { settingsApi } from "@/lib/api/client";
import { IssueTokenForm, tokenColumns, useIssuedTokens } from "./issued-tokens";
import { DataTable } from "./kit/data-table";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { SecretOnce } from "./secret-once";

type TokenView = Awaited<ReturnType<typeof settingsApi.tokens>>["tokens"][number];

const KINDS = [
  { value: "org", label: "Organization (every crew, every run)" },
  { value: "user", label: "Personal (my runs only)" },
] as const;

function apiTokenColumns(onRevoke: (id: string) => Promise<unknown>) {
  return tokenColumns<TokenView>({
    kind: {
      header: "Kind",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.kind === "org" ? "Organization" : `Personal · ${t.email ?? ""}`),
    },
    extra: [{ header: "Created", cell: (t) => <RelativeTime iso={t.created_at} /> }],
    revoke: {
      name: (t) => `Revoke ${t.prefix}`,
      consequence: "Scripts using this token get 401 from now on.",
      onRevoke,
    },
  });
}

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
  const columns = apiTokenColumns(revoke.mutateAsync);
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
        <IssueTokenForm
          choice={
            isAdmin && {
              id: "token-kind",
              label: "Kind",
              className: "w-full sm:w-auto sm:min-w-72",
              value: kind,
              set: setKind,
              options: KINDS,
            }
          }
          label="Label"
          placeholder="e.g. CI pipeline"
          form={form}
          create={create}
          busyLabel="Creating…"
        >
          Create token
        </IssueTokenForm>
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
