/** The agent protocols, as people name them. */
export const PROTOCOL_NAMES = { mcp: "MCP", a2a: "A2A", "ag-ui": "AG-UI" } as const;

/** The agent protocol a run came in by (its `meta.protocol`), as people name it. */
export function protocolLabel(meta: unknown): string | undefined {
  const p = typeof meta === "object" && meta !== null ? Reflect.get(meta, "protocol") : undefined;
  return typeof p === "string" && isProtocol(p) ? PROTOCOL_NAMES[p] : undefined;
}

const isProtocol = (p: string): p is keyof typeof PROTOCOL_NAMES =>
  Object.hasOwn(PROTOCOL_NAMES, p);
