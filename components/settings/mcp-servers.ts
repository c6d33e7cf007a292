import type { McpTestResult } from "@/lib/tools/mcp/schemas";

export type McpServer = Record<string, unknown>;
export type Servers = Record<string, McpServer>;

/** A server's definition as typed, or why it is not one. */
export function parseServer(text: string): McpServer | string {
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

/** How the server is reached: over HTTP when it has a url, else a local process. */
export const serverKind = (def: McpServer) => ("url" in def ? "HTTP" : "stdio");

/** What the server points at: its url, or its command line. */
export function serverDetail(def: McpServer): string {
  if ("url" in def) return String(def.url);
  const args: unknown[] = Array.isArray(def.args) ? def.args : [];
  return [def.command, ...args].join(" ");
}

/** The servers without one of them. */
export function withoutServer(servers: Servers, name: string): Servers {
  const { [name]: _gone, ...others } = servers;
  return others;
}

/** A connection test's answer as the list shows it. */
export const testResult = (r: McpTestResult | undefined) =>
  r && {
    ok: r.ok,
    text: r.ok
      ? `Connected · tools: ${r.tools.map((t) => t.name).join(", ") || "(none)"}`
      : r.error,
  };
