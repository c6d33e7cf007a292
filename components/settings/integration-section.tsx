"use client";

import { useState } from "react";
import { integrationApi } from "@/lib/api/client";
import { IssueTokenForm, tokenColumns, useIssuedTokens } from "./issued-tokens";
import { DataTable } from "./kit/data-table";
import { Problem, SettingsSection } from "./kit/section";
import { SecretOnce } from "./secret-once";

type IntegrationToken = Awaited<ReturnType<typeof integrationApi.tokens>>["tokens"][number];

const ACCESS = [
  { value: "write", label: "Read and write" },
  { value: "read", label: "Read only" },
] as const;

function integrationColumns(onRevoke: (id: string) => Promise<unknown>) {
  return tokenColumns<IntegrationToken>({
    kind: {
      header: "Access",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.access === "read" ? "Read only" : "Read and write"),
    },
    revoke: {
      name: (t) => `Revoke integration token ${t.prefix}`,
      consequence: "Agents using this token are refused from now on.",
      onRevoke,
    },
  });
}

/** Integration tokens: what agent runtimes outside Crewdeck present to call tracker actions. */
export function IntegrationSection() {
  const [access, setAccess] = useState<"read" | "write">("write");
  const { query, form, created, create, revoke } = useIssuedTokens({
    key: "integration-tokens",
    idPrefix: "integration",
    list: integrationApi.tokens,
    create: (label) => integrationApi.create(access, label),
    revoke: integrationApi.revoke,
  });
  const { data } = query;
  const columns = integrationColumns(revoke.mutateAsync);
  return (
    <SettingsSection
      id="integration"
      title="Integration tokens"
      description={
        <>
          Agent runtimes outside Crewdeck call{" "}
          <code className="font-mono">/api/integrations/actions</code> with one; a read-only token
          may only get and search.
        </>
      }
    >
      <IssueTokenForm
        choice={{
          id: "integration-access",
          label: "Access",
          className: "w-full sm:w-48",
          value: access,
          set: setAccess,
          options: ACCESS,
        }}
        label="Integration token label"
        placeholder="e.g. LangGraph worker"
        form={form}
        create={create}
      >
        Create integration token
      </IssueTokenForm>
      {created && (
        <SecretOnce secret={created} what="integration token" testId="new-integration-token" />
      )}
      <Problem errors={[create.error, revoke.error, query.error]} />
      {data && data.tokens.length === 0 && (
        <p className="text-muted-foreground text-sm">
          No integration tokens yet: agents inside Crewdeck need none.
        </p>
      )}
      {data && data.tokens.length > 0 && (
        <DataTable
          label="Integration tokens"
          columns={columns}
          rows={data.tokens}
          rowKey={(t) => t.id}
        />
      )}
    </SettingsSection>
  );
}
