/** The agent protocol a run came in by (its `meta.protocol`), as people name it. */
export function protocolLabel(meta: unknown): string | undefined {
  const p = meta && typeof meta === "object" ? (meta as Record<string, unknown>).protocol : null;
  return p === "mcp" ? "MCP" : p === "a2a" ? "A2A" : p === "ag-ui" ? "AG-UI" : undefined;
}
