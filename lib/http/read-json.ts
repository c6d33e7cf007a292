import { AppError, errorMessage, errors } from "@/lib/errors";

/** Reads a body as text without ever holding more than `limitBytes` of it; 413 past the limit. */
export async function readTextBody(request: Request, limitBytes: number): Promise<string> {
  return (await readBodyBytes(request, limitBytes)).toString("utf8");
}

/** The body's bytes as sent (a signature covers them), within `limitBytes`; 413 past it. */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limitBytes) throw errors.tooLarge(limitBytes);
  if (!request.body) throw errors.badRequest("The request body is empty; send a JSON object.");

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel().catch(() => {});
      throw errors.tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** How deeply objects and arrays may nest in a request body; real bodies stay far below it. */
const MAX_JSON_DEPTH = 64;

/**
 * The nesting depth of JSON text, counted without parsing: brackets outside strings. Run before
 * JSON.parse so a body nested thousands deep is refused before anything recursive (validation,
 * serialization for the database) can blow the stack on it.
 */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

// PostgreSQL stores neither NUL (in text or jsonb) nor UTF-16 halves without their pair, so such
// strings would fail deep inside a write: they are refused here, for every body, naming where.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function badCharacter(s: string): string | undefined {
  if (s.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(s)) return "contains a lone UTF-16 surrogate (e.g. \\uD800)";
  return undefined;
}

const pathText = (path: (string | number)[]) => path.map(String).join(".") || "(body)";

/** The first string or key PostgreSQL could not store, walked without recursion. */
function findBadString(value: unknown): { path: string; message: string } | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { value: v, path } = top;
    if (typeof v === "string") {
      const why = badCharacter(v);
      if (why) return { path: pathText(path), message: `the string ${why}` };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v);
      for (const [key] of entries) {
        const why = badCharacter(key);
        if (why) return { path: pathText(path), message: `a key ${why}` };
      }
      for (const [key, child] of entries.reverse())
        stack.push({ value: child, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Parses JSON text from a client: 400 when it is malformed, nested deeper than MAX_JSON_DEPTH,
 * or holds a string the database cannot store (NUL, lone surrogate), naming the field.
 */
export function parseJsonText(text: string, what = "The request body"): unknown {
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    throw new AppError(
      "too-deep",
      400,
      `${what} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep; flatten it.`,
      { max_depth: MAX_JSON_DEPTH },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AppError("malformed-json", 400, `${what} is not valid JSON: ${errorMessage(err)}`);
  }
  const bad = findBadString(value);
  if (bad) {
    throw new AppError(
      "bad-character",
      400,
      `${what} has a bad character at ${bad.path}: ${bad.message}.`,
      {
        errors: [bad],
      },
    );
  }
  return value;
}

/** Reads and parses a JSON body within `limitBytes`: 413 past it, 400 for empty, malformed, too
 * deep, or holding strings the database cannot store. */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const text = await readTextBody(request, limitBytes);
  if (!text.trim()) throw errors.badRequest("The request body is empty; send a JSON object.");
  return parseJsonText(text);
}
