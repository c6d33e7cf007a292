"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { integrationApi } from "@/lib/api/client";
import { type Column, DataTable } from "./kit/data-table";
import { ConfirmButton } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { Missing, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";
import { SecretOnce } from "./secret-once";

type IntegrationToken = Awaited<ReturnType<typeof integrationApi.tokens>>["tokens"][number];

/** Integration tokens: what agent runtimes outside Crewdeck present to call tracker actions. */
export function IntegrationSection() {
  const { query, refresh } = useSettingsQuery(["integration-tokens"], integrationApi.tokens);
  const { data } = query;
  const [access, setAccess] = useState<"read" | "write">("write");
  const form = useFields("integration", { label: "" });
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => integrationApi.create(access, form.values.label || undefined),
    onSuccess: (r) => {
      setCreated(r.token);
      form.reset();
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: integrationApi.revoke, onSuccess: refresh });
  const columns: Column<IntegrationToken>[] = [
    {
      header: "Token",
      cell: (t) => <code className="whitespace-nowrap font-mono text-xs">{t.prefix}</code>,
    },
    {
      header: "Access",
      cellClassName: "whitespace-nowrap",
      cell: (t) => (t.access === "read" ? "Read only" : "Read and write"),
    },
    { header: "Label", cell: (t) => t.label ?? <Missing /> },
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
            label={`Revoke integration token ${t.prefix}`}
            title={`Revoke ${t.prefix}?`}
            description="Agents using this token are refused from now on. This cannot be undone."
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
