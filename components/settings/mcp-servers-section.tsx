"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plug } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input, Textarea } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { toolsApi } from "@/lib/api/client";
import type { McpTestResult } from "@/lib/tools/mcp/schemas";

// The reference syntax as shown (a template literal with its placeholder escaped).
const SECRET_REF = `\${secret:NAME}`;
const ENV_REF = `\${env:NAME}`;

const EXAMPLE = `{
  "command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/shared"]
}`;

/** The deployment's MCP servers (every crew's agents may list them in `mcps`), and a test. */
export function McpServersSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["mcp-servers"], queryFn: toolsApi.servers });
  const [results, setResults] = useState<Record<string, McpTestResult>>({});
  const [name, setName] = useState("");
  const [config, setConfig] = useState("");
  const [parseError, setParseError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (servers: Record<string, Record<string, unknown>>) =>
      toolsApi.saveServers({ servers }),
    onSuccess: (view) => qc.setQueryData(["mcp-servers"], view),
  });
  const test = useMutation({
    mutationFn: (server: string) => toolsApi.test({ name: server }),
    onSuccess: (result, server) => setResults((r) => ({ ...r, [server]: result })),
  });
  const servers = data?.servers ?? {};
  const add = (e: FormEvent) => {
    e.preventDefault();
    setParseError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(config);
    } catch {
      setParseError("The server is not valid JSON.");
      return;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      setParseError("The server is a JSON object: command and args, or url and headers.");
      return;
    }
    save.mutate(
      { ...servers, [name.trim()]: parsed as Record<string, unknown> },
      {
        onSuccess: () => {
          setName("");
          setConfig("");
          test.mutate(name.trim());
        },
      },
    );
  };
  const problem = error ?? save.error ?? test.error;
  return (
    <Card aria-labelledby="mcp-servers-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="mcp-servers-title">MCP servers</CardTitle>
          <CardDescription>
            Offered to every crew: an agent lists <code className="font-mono">server</code> or{" "}
            <code className="font-mono">server/tool</code> under <code>mcps</code>. A crew's own{" "}
            <code className="font-mono">mcp_servers</code> win on a name both use. Credentials are
            written as <code className="font-mono">{SECRET_REF}</code> or{" "}
            <code className="font-mono">{ENV_REF}</code>, never in clear.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 [&>*]:min-w-0">
        {problem && <Alert tone="danger">{problem.message}</Alert>}
        {data?.warnings.map((w) => (
          <Alert key={w} tone="warning">
            {w}
          </Alert>
        ))}
        {!data && !error && <Skeleton className="h-20" />}
        {data && Object.keys(servers).length === 0 && (
          <EmptyState icon={Plug} title="No deployment-wide MCP servers">
            Crews may still declare their own under mcp_servers.
          </EmptyState>
        )}
        {Object.keys(servers).length > 0 && (
          <ul className="grid divide-y rounded-lg border">
            {Object.entries(servers).map(([server, def]) => {
              const result = results[server];
              const testing = test.isPending && test.variables === server;
              const { [server]: _gone, ...others } = servers;
              return (
                <li key={server} className="grid gap-2 p-3 sm:grid-cols-[1fr_auto] sm:items-start">
                  <div className="grid min-w-0 gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{server}</span>
                      <Badge tone="neutral">{"url" in def ? "HTTP" : "stdio"}</Badge>
                    </div>
                    <code className="break-all font-mono text-muted-foreground text-xs">
                      {"url" in def
                        ? String(def.url)
                        : [def.command, ...((def.args as string[] | undefined) ?? [])].join(" ")}
                    </code>
                    {result?.ok && (
                      <Alert tone="success">
                        Connected · tools: {result.tools.map((t) => t.name).join(", ") || "(none)"}
                      </Alert>
                    )}
                    {result && !result.ok && <Alert tone="danger">{result.error}</Alert>}
                  </div>
                  <div className="flex flex-wrap gap-1 sm:justify-end">
                    <Button size="sm" onClick={() => test.mutate(server)} disabled={testing}>
                      {testing ? "Testing…" : "Test connection"}
                    </Button>
                    <ConfirmDialog
                      trigger={
                        <Button size="sm" variant="ghost" aria-label={`Remove ${server}`}>
                          Remove
                        </Button>
                      }
                      title={`Remove ${server}?`}
                      description="Agents that list it fail their tasks until a crew declares it."
                      confirmLabel="Remove"
                      destructive
                      onConfirm={() => save.mutate(others)}
                    />
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        <form method="post" onSubmit={add} className="grid gap-3" aria-label="Add an MCP server">
          <Field id="mcp-name" label="Name" help="Letters, digits, '_' or '-'.">
            <Input
              id="mcp-name"
              aria-describedby="mcp-name-help"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="files"
              autoComplete="off"
              required
            />
          </Field>
          <Field
            id="mcp-config"
            label="Server (JSON)"
            help="command, args, env, cwd for stdio; url and headers for Streamable HTTP; optional timeout_seconds and requires_approval."
          >
            <Textarea
              id="mcp-config"
              aria-describedby="mcp-config-help"
              className="font-mono text-xs"
              rows={5}
              value={config}
              onChange={(e) => setConfig(e.target.value)}
              placeholder={EXAMPLE}
              required
            />
          </Field>
          {parseError && <Alert tone="danger">{parseError}</Alert>}
          <div>
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Add server"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** The values `${secret:NAME}` stands for: sealed, write-only. */
export function McpSecretsSection() {
  const qc = useQueryClient();
  const { data, error } = useQuery({ queryKey: ["mcp-secrets"], queryFn: toolsApi.secrets });
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const save = useMutation({
    mutationFn: (secrets: Record<string, string | null>) => toolsApi.saveSecrets({ secrets }),
    onSuccess: (view) => qc.setQueryData(["mcp-secrets"], view),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { [name.trim()]: value },
      {
        onSuccess: () => {
          setName("");
          setValue("");
        },
      },
    );
  };
  return (
    <Card aria-labelledby="mcp-secrets-title">
      <CardHeader>
        <div className="grid gap-1">
          <CardTitle id="mcp-secrets-title">Secrets for MCP servers</CardTitle>
          <CardDescription>
            Written in a server's env, headers, URL or arguments as{" "}
            <code className="font-mono">{SECRET_REF}</code>. Stored encrypted; never shown again,
            and blotted out of tool results and errors.
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3 [&>*]:min-w-0">
        {(error ?? save.error) && <Alert tone="danger">{(error ?? save.error)?.message}</Alert>}
        {!data && !error && <Skeleton className="h-12" />}
        {data && data.secrets.length > 0 && (
          <ul className="grid divide-y rounded-lg border">
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
          </ul>
        )}
        <form
          method="post"
          onSubmit={submit}
          className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]"
          aria-label="Save a secret"
        >
          <Field id="mcp-secret-name" label="Secret name">
            <Input
              id="mcp-secret-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="GITHUB_TOKEN"
              autoComplete="off"
              required
            />
          </Field>
          <Field id="mcp-secret-value" label="Value">
            <Input
              id="mcp-secret-value"
              type="password"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              autoComplete="new-password"
              required
            />
          </Field>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save secret"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
