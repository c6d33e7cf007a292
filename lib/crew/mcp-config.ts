import { z } from "zod";
import { RequiresApprovalSchema } from "./requires-approval";

// An MCP server as a crew file (`mcp_servers:`) or Settings declares it: a local program spoken
// to over stdio, or a Streamable HTTP endpoint. Secrets are never written in clear: values that
// carry them are `${env:NAME}` (Crewdeck's environment) or `${secret:NAME}` (sealed settings).
const StdioServerSchema = z.object({
  command: z.string().trim().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
// The URL may itself be a reference (a token in its path, or a port known only where it runs).
const HttpServerSchema = z.object({
  url: z
    .string()
    .trim()
    .refine((u) => REF_ONLY.test(u) || URL.canParse(u), "url must be an http(s) URL"),
  headers: z.record(z.string(), z.string()).default({}),
});
const Common = z.object({
  requires_approval: RequiresApprovalSchema.optional(),
  // Per-call time-out for this server's tools (TOOL_TIMEOUT_SECONDS unless set).
  timeout_seconds: z.number().int().positive().max(3600).optional(),
});

const StdioServer = StdioServerSchema.extend(Common.shape).strict();
const HttpServer = HttpServerSchema.extend(Common.shape).strict();
const McpServerSchema = z.union([StdioServer, HttpServer], {
  error: "an MCP server has either command (stdio) or url (Streamable HTTP)",
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export type McpServerDef = z.infer<typeof McpServerSchema> & { name: string };

/** Server names: what `mcps: [server/tool]` and the model's tool names are made of. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

/** `${env:NAME}` or `${secret:NAME}`; anything around it is kept as written. */
export const REF = /\$\{(env|secret):([A-Za-z_][A-Za-z0-9_]*)\}/g;
const REF_ONLY = /^\$\{(env|secret):[A-Za-z_][A-Za-z0-9_]*\}/;

// Keys whose values are credentials: these must be references, never written in clear.
const SECRET_KEY = /authorization|token|secret|passw|cookie|credential|api[-_]?key|(^|[-_])key$/i;

const looksSecret = (key: string) => SECRET_KEY.test(key);

/** A mistake in a server declaration: the key at fault (under `mcp_servers`) and why. */
export class McpConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

const hasRef = (value: string) => new RegExp(REF.source).test(value);

/**
 * `mcp_servers:` as written (a map of name → server), checked: the shape, the names, and that no
 * credential is written in clear. Keys in errors are relative to the map (`github.headers.x`).
 */
export function parseMcpServers(value: unknown): McpServerDef[] {
  if (value === undefined || value === null) return [];
  if (!isObject(value)) throw new McpConfigError("", "mcp_servers maps server names to servers");
  return Object.entries(value).map(([name, raw]) => {
    if (!SERVER_NAME.test(name))
      throw new McpConfigError(
        name,
        "server names are letters, digits, '_' or '-' (at most 40): agents list them as server or server/tool",
      );
    // Which kind is meant is read from the object, so the message is about that kind's keys.
    const schema = isObject(raw) && "url" in raw ? HttpServer : StdioServer;
    const res = schema.safeParse(raw);
    if (!res.success) {
      const issue = res.error.issues[0];
      const key = [name, ...(issue?.path ?? []).map(String)].join(".");
      throw new McpConfigError(key, issue?.message ?? "invalid");
    }
    const server: McpServerDef = { ...res.data, name };
    checkNoClearSecrets(server);
    return server;
  });
}

/** Values of credential-like keys in env and headers must be `${env:…}`/`${secret:…}`. */
export function checkNoClearSecrets(server: McpServerDef) {
  const maps: Array<[string, Record<string, string>]> =
    "command" in server ? [["env", server.env]] : [["headers", server.headers]];
  if ("url" in server) {
    const [param] = clearSecretParams(server.url);
    if (param)
      throw new McpConfigError(
        `${server.name}.url`,
        `the URL's '${param}' looks like a credential: never in clear; write ${param}=\${env:NAME} (Crewdeck's environment) or \${secret:NAME} (saved in Settings → Tools)`,
      );
  }
  for (const [field, map] of maps) {
    for (const [k, v] of Object.entries(map)) {
      if (looksSecret(k) && !hasRef(v))
        throw new McpConfigError(
          `${server.name}.${field}.${k}`,
          `looks like a credential: never in clear; write \${env:NAME} (Crewdeck's environment) or \${secret:NAME} (saved in Settings → Tools)`,
        );
    }
  }
}

/** The `${env:…}`/`${secret:…}` names a server uses. */
export function referencesOf(
  server: McpServerDef,
): Array<{ kind: "env" | "secret"; name: string }> {
  const texts =
    "command" in server
      ? [server.command, ...server.args, ...Object.values(server.env), server.cwd ?? ""]
      : [server.url, ...Object.values(server.headers)];
  const out = new Map<string, { kind: "env" | "secret"; name: string }>();
  for (const t of texts)
    for (const m of t.matchAll(REF)) {
      const [, kind, name = ""] = m;
      if (kind === "env" || kind === "secret") out.set(`${kind}:${name}`, { kind, name });
    }
  return [...out.values()];
}

/**
 * An agent's `mcps` entry: a whole server, or one of its tools — `server/tool`, or CrewAI's
 * `server#tool`. (CrewAI's URL entries are made into servers at load: lib/crew/mcp-servers.ts.)
 */
export function parseMcpRef(entry: string): { server: string; tool?: string } | undefined {
  const at = entry.search(/[/#]/);
  const server = at < 0 ? entry : entry.slice(0, at);
  const tool = at < 0 ? undefined : entry.slice(at + 1);
  if (!server || !SERVER_NAME.test(server)) return undefined;
  if (tool !== undefined && !tool) return undefined;
  return tool ? { server, tool } : { server };
}

/** CrewAI's `mcps: ["https://host/mcp#tool"]`: a Streamable HTTP server named in place. */
export function parseMcpUrl(entry: string): { url: string; tool?: string } | undefined {
  if (!/^https?:\/\//i.test(entry)) return undefined;
  const hash = entry.indexOf("#");
  const url = hash < 0 ? entry : entry.slice(0, hash);
  const tool = hash < 0 ? undefined : entry.slice(hash + 1) || undefined;
  return { url, ...(tool ? { tool } : {}) };
}

/**
 * Query parameters of a URL that carry a credential in clear (`?api_key=…` as CrewAI's examples
 * write it): they must be references too.
 */
export function clearSecretParams(url: string): string[] {
  const query = url.split("#")[0]?.split("?")[1] ?? "";
  return query
    .split("&")
    .map((pair) => pair.split("="))
    .filter(([k = "", v = ""]) => looksSecret(decoded(k)) && !hasRef(v))
    .map(([k = ""]) => decoded(k));
}

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Deployment servers under crew servers: the crew's wins on a name both use. */
export function mergeServers(
  crew: McpServerDef[],
  deployment: McpServerDef[],
): { servers: McpServerDef[]; shadowed: string[] } {
  const own = new Set(crew.map((s) => s.name));
  const shadowed = deployment.filter((s) => own.has(s.name)).map((s) => s.name);
  return { servers: [...crew, ...deployment.filter((s) => !own.has(s.name))], shadowed };
}
