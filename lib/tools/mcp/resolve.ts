import { type McpServerDef, REF } from "@/lib/crew/mcp-config";

// `${env:NAME}` and `${secret:NAME}` filled in just before a server is connected. The values
// filled in are remembered, so that any text shown afterwards (errors, tool results, the event
// log) can have them blotted out: a server that echoes its environment does not leak them.

export type Resolved = {
  server: McpServerDef;
  /**
   * Every value a reference stood for, and the encodings it is commonly echoed in (longest
   * first), to redact wherever text is shown: worked out once per resolved server.
   */
  secrets: string[];
};

class MissingReferenceError extends Error {}

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
  return { server, secrets: secretForms([...used]) };
}

// Very short values would blot out ordinary words: they are not treated as secrets, and only
// values this long get their encoded forms redacted too (the forms of a short one, its reverse or
// upper case, are too likely to be ordinary text).
const MIN_SECRET = 4;
const MIN_ENCODED = 6;

/**
 * The values and the forms a tool or server commonly echoes them in: upper and lower case,
 * reversed, base64 (standard and URL-safe, with and without padding, and as it reads inside a
 * longer encoded text such as `user:secret`), hex, URL-encoded, JSON-escaped. Longest first, so a
 * longer form is blotted out before a shorter one inside it.
 */
export function secretForms(values: string[]): string[] {
  const forms = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_SECRET) continue;
    forms.add(v);
    if (v.length < MIN_ENCODED) continue;
    const bytes = Buffer.from(v, "utf8");
    const texts = [v, v.toUpperCase(), v.toLowerCase(), [...v].reverse().join("")];
    texts.push(encodeURIComponent(v), JSON.stringify(v).slice(1, -1));
    texts.push(bytes.toString("hex"), bytes.toString("hex").toUpperCase());
    for (const b64 of base64Forms(bytes)) {
      const bare = b64.replace(/=+$/, "");
      texts.push(b64, bare, toUrlSafe(b64), toUrlSafe(bare));
    }
    for (const t of texts) if (t.length >= MIN_ENCODED) forms.add(t);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

// Base64 of the bytes whole (with padding), and the characters that stand for them alone when
// they begin at byte 0, 1 or 2 of a longer text (the ones shared with neighbours left out).
function base64Forms(bytes: Buffer): string[] {
  const out = [bytes.toString("base64")];
  for (let k = 0; k < 3; k++) {
    const text = Buffer.concat([Buffer.alloc(k), bytes]).toString("base64");
    out.push(text.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6)));
  }
  return out;
}

const toUrlSafe = (b64: string) => b64.replace(/\+/g, "-").replace(/\//g, "_");
