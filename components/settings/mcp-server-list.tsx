import { Badge } from "@/components/ui/badge";
import type { McpTestResult } from "@/lib/tools/mcp/schemas";
import { ConfirmAction } from "./kit/dialogs";
import { TestButton } from "./kit/fields";
import { Item, ItemList } from "./kit/item-list";
import { CheckResult } from "./kit/section";
import { type Servers, serverDetail, serverKind, testResult, withoutServer } from "./mcp-servers";

/** The deployment's MCP servers, each with its last test, a test button and Remove. */
export function McpServerList({
  servers,
  results,
  testing,
  onTest,
  onSave,
}: {
  servers: Servers;
  results: Record<string, McpTestResult>;
  /** The server whose test is out, if any. */
  testing: string | undefined;
  onTest: (server: string) => void;
  onSave: (servers: Servers) => void;
}) {
  return (
    <ItemList>
      {Object.entries(servers).map(([server, def]) => (
        <Item
          key={server}
          name={<span className="font-medium">{server}</span>}
          badges={<Badge tone="neutral">{serverKind(def)}</Badge>}
          detail={serverDetail(def)}
          actions={
            <>
              <TestButton size="sm" testing={testing === server} onClick={() => onTest(server)} />
              <ConfirmAction
                verb="Remove"
                name={server}
                description="Agents that list it fail their tasks until a crew declares it."
                onConfirm={() => onSave(withoutServer(servers, server))}
              />
            </>
          }
        >
          <CheckResult result={testResult(results[server])} />
        </Item>
      ))}
    </ItemList>
  );
}
