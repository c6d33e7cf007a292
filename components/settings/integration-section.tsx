"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { integrationApi } from "@/lib/api/client";
import {
  labelColumn,
  lastUsedColumn,
  prefixColumn,
  revokeColumn,
  useIssuedTokens,
} from "./issued-tokens";
import { type Column, DataTable } from "./kit/data-table";
import { InputField, SettingsForm, SubmitButton } from "./kit/fields";
import { Problem, SettingsSection } from "./kit/section";
import { SecretOnce } from "./secret-once";

type IntegrationToken = Awaited<ReturnType<typeof integrationApi.tokens>>["tokens"][number];

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
  const columns: Column<IntegrationToken>[] = [
    prefixColumn,
    {
      header: "Access",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.access === "read" ? "Read only" : "Read and write"),
    },
    labelColumn,
    lastUsedColumn,
    revokeColumn({
      name: (t) => `Revoke integration token ${t.prefix}`,
      consequence: "Agents using this token are refused from now on.",
      onRevoke: revoke.mutateAsync,
    }),
  ];
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
      <SettingsForm onSubmit={() => create.mutate()} className="flex flex-wrap items-end gap-3">
        <Field id="integration-access" label="Access" className="w-full sm:w-48">
          <Select
            id="integration-access"
            value={access}
            onChange={(e) => setAccess(e.target.value === "read" ? "read" : "write")}
          >
            <option value="write">Read and write</option>
            <option value="read">Read only</option>
          </Select>
        </Field>
        <InputField
          label="Integration token label"
          fieldClassName="w-full sm:w-64"
          maxLength={100}
          placeholder="e.g. LangGraph worker"
          {...form.bind("label")}
        />
        <SubmitButton busy={create.isPending}>Create integration token</SubmitButton>
      </SettingsForm>
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
