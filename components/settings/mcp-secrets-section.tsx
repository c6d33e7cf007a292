"use client";

import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { toolsApi } from "@/lib/api/client";
import { InputField, SettingsForm, SubmitButton, useFields } from "./kit/fields";
import { ItemList } from "./kit/item-list";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";
import { SECRET_REF } from "./mcp-servers-section";

/** The values `${secret:NAME}` stands for: sealed, write-only. */
export function McpSecretsSection() {
  const { query, replace } = useSettingsQuery(["mcp-secrets"], toolsApi.secrets);
  const { data, error } = query;
  const form = useFields("mcp-secret", { name: "", value: "" });
  const save = useMutation({
    mutationFn: (secrets: Record<string, string | null>) => toolsApi.saveSecrets({ secrets }),
    onSuccess: replace,
  });
  return (
    <SettingsSection
      id="mcp-secrets"
      title="Secrets for MCP servers"
      gap="gap-3"
      description={
        <>
          Written in a server's env, headers, URL or arguments as{" "}
          <code className="font-mono">{SECRET_REF}</code>. Stored encrypted; never shown again, and
          blotted out of tool results and errors.
        </>
      }
    >
      <Problem errors={[error, save.error]} />
      <Loading query={query} className="h-12" />
      {data && data.secrets.length > 0 && (
        <ItemList>
          {data.secrets.map((s) => (
            <li key={s.name} className="flex items-center justify-between gap-2 p-3">
              <code className="font-mono text-sm">{s.name}</code>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove secret ${s.name}`}
                onClick={() => save.mutate({ [s.name]: null })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ItemList>
      )}
      <SettingsForm
        onSubmit={() =>
          save.mutate({ [form.values.name.trim()]: form.values.value }, { onSuccess: form.reset })
        }
        className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]"
        aria-label="Save a secret"
      >
        <InputField
          label="Secret name"
          placeholder="e.g. GITHUB_TOKEN"
          autoComplete="off"
          required
          {...form.bind("name")}
        />
        <InputField
          label="Value"
          type="password"
          autoComplete="new-password"
          required
          {...form.bind("value")}
        />
        <SubmitButton busy={save.isPending} busyLabel="Saving…">
          Save secret
        </SubmitButton>
      </SettingsForm>
    </SettingsSection>
  );
}
