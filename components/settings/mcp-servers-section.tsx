"use client";

import { Plug } from "lucide-react";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Loading, Problem, SettingsSection } from "./kit/section";
import { McpServerForm } from "./mcp-server-form";
import { McpServerList } from "./mcp-server-list";
import { useMcpServers } from "./use-mcp-servers";

// The reference syntax as shown (a template literal with its placeholder escaped).
export const SECRET_REF = `\${secret:NAME}`;
const ENV_REF = `\${env:NAME}`;

/** The deployment's MCP servers (every crew's agents may list them in `mcps`), and a test. */
export function McpServersSection() {
  const { query, servers, results, form, parseError, save, test, add } = useMcpServers();
  const { data, error } = query;
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
        <McpServerList
          servers={servers}
          results={results}
          testing={test.isPending ? test.variables : undefined}
          onTest={(server) => test.mutate(server)}
          onSave={(next) => save.mutate(next)}
        />
      )}
      <McpServerForm form={form} parseError={parseError} busy={save.isPending} onSubmit={add} />
    </SettingsSection>
  );
}
