import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toolsApi } from "@/lib/api/client";
import type { McpTestResult } from "@/lib/tools/mcp/schemas";
import { useFields } from "./kit/fields";
import { useSettingsQuery } from "./kit/use-settings-query";
import { parseServer, type Servers } from "./mcp-servers";

/** The MCP servers, their tests, and the add form: a server added is saved, then tested. */
export function useMcpServers() {
  const { query, replace } = useSettingsQuery(["mcp-servers"], toolsApi.servers);
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
  const servers = query.data?.servers ?? {};
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
  return { query, servers, results, form, parseError, save, test, add };
}
