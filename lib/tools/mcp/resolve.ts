import { type McpServerDef, REF } from "./config";

// `${env:NAME}` and `${secret:NAME}` filled in just before a server is connected. The values
// filled in are remembered, so that any text shown afterwards (errors, tool results, the event
// log) can have them blotted out: a server that echoes its environment does not leak them.

export type Resolved = {
  server: McpServerDef;
  /** Every value a reference stood for (longest first), to redact wherever text is shown. */
  secrets: string[];
};

export class MissingReferenceError extends Error {}

export function resolveServer(
  def: McpServerDef,
  sources: { env: Record<string, string | undefined>; secrets: Map<string, string> },
): Resolved {
  const used = new Set<string>();
  const missing: string[] = [];
  const fill = (text: string) =>
    text.replace(new RegExp(REF.source, "g"), (_m, kind: string, name: string) => {
      const value = kind === "env" ? sources.env[name] : sources.secrets.get(name);
      if (value === undefined || value === "") {
        missing.push(kind === "env" ? `environment variable ${name}` : `secret ${name}`);
        return "";
      }
      used.add(value);
      return value;
    });
  const map = (m: Record<string, string>) =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fill(v)]));
  const server: McpServerDef =
    "command" in def
      ? {
          ...def,
          command: fill(def.command),
          args: def.args.map(fill),
          env: map(def.env),
          ...(def.cwd ? { cwd: fill(def.cwd) } : {}),
        }
      : { ...def, url: fill(def.url), headers: map(def.headers) };
  if (missing.length)
    throw new MissingReferenceError(
      `MCP server '${def.name}' needs ${[...new Set(missing)].join(", ")}, which ${missing.length > 1 ? "are" : "is"} not set${missing.some((m) => m.startsWith("secret")) ? " (secrets are saved in Settings → Tools)" : ""}`,
    );
  // Very short values would blot out ordinary words: they are not treated as secrets.
  const secrets = [...used].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  return { server, secrets };
}

/** `text` with every secret value replaced by a mark saying one was there. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("[redacted]");
  return out;
}

/** Redacts every string inside a JSON-like value. */
export function redactDeep(value: unknown, secrets: string[]): unknown {
  if (!secrets.length) return value;
  if (typeof value === "string") return redact(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redact(k, secrets), redactDeep(v, secrets)]),
    );
  return value;
}
