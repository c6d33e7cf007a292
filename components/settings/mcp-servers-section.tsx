"use client";

import { useMutation } from "@tanstack/react-query";
import { Plug } from "lucide-react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { toolsApi } from "@/lib/api/client";
import type { McpTestResult } from "@/lib/tools/mcp/schemas";
import { ConfirmAction } from "./kit/dialogs";
import { InputField, SettingsForm, SubmitButton, TestButton, useFields } from "./kit/fields";
import { Item, ItemList } from "./kit/item-list";
import { CheckResult, Loading, Problem, SettingsSection } from "./kit/section";
import { useSettingsQuery } from "./kit/use-settings-query";

// The reference syntax as shown (a template literal with its placeholder escaped).
export const SECRET_REF = `\${secret:NAME}`;
const ENV_REF = `\${env:NAME}`;

const EXAMPLE = `e.g. {
  "command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"]
}`;

type Servers = Record<string, Record<string, unknown>>;

/** A server's definition as typed, or why it is not one. */
function parseServer(text: string): Record<string, unknown> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "The server is not valid JSON.";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return "The server is a JSON object: command and args, or url and headers.";
  return { ...parsed };
}

const testResult = (r: McpTestResult | undefined) =>
  r && {
    ok: r.ok,
    text: r.ok
      ? `Connected · tools: ${r.tools.map((t) => t.name).join(", ") || "(none)"}`
      : r.error,
  };

/** The deployment's MCP servers (every crew's agents may list them in `mcps`), and a test. */
export function McpServersSection() {
  const { query, replace } = useSettingsQuery(["mcp-servers"], toolsApi.servers);
  const { data, error } = query;
  const [results, setResults] = useState<Record<string, McpTestResult>>({});
  const form = useFields("mcp", { name: "", config: "" });
  const [parseError, setParseError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (servers: Servers) => toolsApi.saveServers({ servers }),
    onSuccess: replace,
  });
  const test = useMutation({
    mutationFn: (server: string) => toolsApi.test({ name: server }),
    onSuccess: (result, server) => setResults((r) => ({ ...r, [server]: result })),
  });
  const servers = data?.servers ?? {};
  const add = () => {
    const name = form.values.name.trim();
    const parsed = parseServer(form.values.config);
    setParseError(typeof parsed === "string" ? parsed : null);
    if (typeof parsed === "string") return;
    save.mutate(
      { ...servers, [name]: parsed },
      {
        onSuccess: () => {
          form.reset();
          test.mutate(name);
        },
      },
    );
  };
  return (
    <SettingsSection
      id="mcp-servers"
      title="MCP servers"
      gap="gap-3"
      description={
        <>
          Offered to every crew: an agent lists <code className="font-mono">server</code> or{" "}
          <code className="font-mono">server/tool</code> under <code>mcps</code>. A crew's own{" "}
          <code className="font-mono">mcp_servers</code> win on a name both use. Credentials are
          written as <code className="font-mono">{SECRET_REF}</code> or{" "}
          <code className="font-mono">{ENV_REF}</code>, never in clear.
        </>
      }
    >
      <Problem errors={[error, save.error, test.error]} />
      {data?.warnings.map((w) => (
        <Alert key={w} tone="warning">
          {w}
        </Alert>
      ))}
      <Loading query={query} className="h-20" />
      {data && Object.keys(servers).length === 0 && (
        <EmptyState icon={Plug} title="No deployment-wide MCP servers">
          Crews may still declare their own under mcp_servers.
        </EmptyState>
      )}
      {Object.keys(servers).length > 0 && (
        <ItemList>
          {Object.entries(servers).map(([server, def]) => {
            const { [server]: _gone, ...others } = servers;
            return (
              <Item
                key={server}
                name={<span className="font-medium">{server}</span>}
                badges={<Badge tone="neutral">{"url" in def ? "HTTP" : "stdio"}</Badge>}
                detail={
                  "url" in def
                    ? String(def.url)
                    : [def.command, ...((def.args as string[] | undefined) ?? [])].join(" ")
                }
                actions={
                  <>
                    <TestButton
                      size="sm"
                      testing={test.isPending && test.variables === server}
                      onClick={() => test.mutate(server)}
                    />
                    <ConfirmAction
                      verb="Remove"
                      name={server}
                      description="Agents that list it fail their tasks until a crew declares it."
                      onConfirm={() => save.mutate(others)}
                    />
                  </>
                }
              >
                <CheckResult result={testResult(results[server])} />
              </Item>
            );
          })}
        </ItemList>
      )}
      <SettingsForm onSubmit={add} className="grid gap-3" aria-label="Add an MCP server">
        <InputField
          label="Name"
          help="Letters, digits, '_' or '-'."
          placeholder="e.g. files"
          autoComplete="off"
          required
          {...form.bind("name")}
        />
        <Field
          id="mcp-config"
          label="Server (JSON)"
          help="command, args, env, cwd for stdio; url and headers for Streamable HTTP; optional timeout_seconds and requires_approval."
        >
          <Textarea
            aria-describedby="mcp-config-help"
            className="font-mono text-xs"
            rows={5}
            placeholder={EXAMPLE}
            required
            {...form.bind("config")}
          />
        </Field>
        {parseError && <Alert tone="danger">{parseError}</Alert>}
        <div>
          <SubmitButton busy={save.isPending} busyLabel="Saving…">
            Add server
          </SubmitButton>
        </div>
      </SettingsForm>
    </SettingsSection>
  );
}
