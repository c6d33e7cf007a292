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
/** What is wrong with a string PostgreSQL cannot store ("contains a NUL character (\u0000)"). */
export function badCharacter(s: string): string | undefined {
  if (s.includes("\u0000")) return "contains a NUL character (\\u0000)";
  if (!s.isWellFormed()) return "contains a lone UTF-16 surrogate (e.g. \\uD800)";
  return undefined;
}

// JSON text holds a NUL only as the escape \u0000 (JSON.parse refuses it raw), and a lone
// surrogate as an escape or, in a string not read as UTF-8, raw: without either, nothing to walk.
const MAY_HOLD = /\\u(?:0000|[dD][89a-fA-F])/;
const mayHoldBadString = (text: string) =>
  !text.isWellFormed() || (text.includes("\\u") && MAY_HOLD.test(text));

type Frame = { value: object; key: string | number; up: Frame | undefined };
const pathText = (frame: Frame | undefined, last?: string | number) => {
  const keys = last === undefined ? [] : [last];
  for (let f = frame; f?.up; f = f.up) keys.push(f.key);
  return keys.reverse().join(".") || "(body)";
};

/**
 * A string or key PostgreSQL could not store, walked without recursion: each object's keys and
 * strings are checked where they are met, its objects and arrays put on a stack with a link to
 * their parent (a path is made only for what is found).
 */
function findBadString(value: unknown): { path: string; message: string } | undefined {
  if (typeof value === "string") {
    const why = badCharacter(value);
    return why ? { path: "(body)", message: `the string ${why}` } : undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const stack: Frame[] = [{ value, key: "", up: undefined }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const v = top.value;
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((child: unknown, i) => [i, child])
      : Object.entries(v);
    const nested: Frame[] = [];
    for (const [key, child] of entries) {
      const why = typeof key === "string" ? badCharacter(key) : undefined;
      if (why) return { path: pathText(top), message: `a key ${why}` };
      if (typeof child === "string") {
        const bad = badCharacter(child);
        if (bad) return { path: pathText(top, key), message: `the string ${bad}` };
      } else if (typeof child === "object" && child !== null)
        nested.push({ value: child, key, up: top });
    }
    // Last to first on the stack, so the first is walked first.
    for (const frame of nested.toReversed()) stack.push(frame);
  }
  return undefined;
}

/**
 * Parses JSON text from a client: 400 when it is malformed, nested deeper than MAX_JSON_DEPTH,
 * or holds a string the database cannot store (NUL, lone surrogate), naming the field. `where`
 * goes into that field's error (an upload's row and line).
 */
export function parseJsonText(text: string, what = "The request body", where = {}): unknown {
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
  const bad = mayHoldBadString(text) ? findBadString(value) : undefined;
  if (bad) {
    throw new AppError(
      "bad-character",
      400,
      `${what} has a bad character at ${bad.path}: ${bad.message}.`,
      { errors: [{ ...where, ...bad }] },
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
