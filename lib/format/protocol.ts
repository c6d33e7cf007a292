/** The agent protocols, as people name them. */
export const PROTOCOL_NAMES = { mcp: "MCP", a2a: "A2A", "ag-ui": "AG-UI" } as const;

/** The agent protocol a run came in by (its `meta.protocol`), as people name it. */
export function protocolLabel(meta: unknown): string | undefined {
  const p = meta && typeof meta === "object" ? (meta as Record<string, unknown>).protocol : null;
  return typeof p === "string" && Object.hasOwn(PROTOCOL_NAMES, p)
    ? PROTOCOL_NAMES[p as keyof typeof PROTOCOL_NAMES]
    : undefined;
}
