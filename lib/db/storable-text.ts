/**
 * Text the database can store. PostgreSQL refuses NUL (U+0000) in text and jsonb (22P05, 22021)
 * and lone UTF-16 surrogates in jsonb; any web page, model or tool may send either, and one
 * refused write would end the run. Every parameter goes through `storableParams` (lib/db/open.ts):
 * NUL becomes "␀" (U+2400, visible, so the reader sees something was there) and a lone surrogate
 * U+FFFD, in string values and object keys alike. Everything else is left as it was.
 */

export const NUL_STANDIN = "\u2400";
const REPLACEMENT = "\ufffd";

// ES2024's String methods (Node 20 has them; the project's TypeScript lib is ES2023).
type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

/** `s` with NUL as "␀" and each lone surrogate as U+FFFD; `s` itself when it has neither. */
export function storableText(s: string): string {
  const wf = s as unknown as WellFormed;
  const whole = wf.isWellFormed();
  if (whole && !s.includes("\0")) return s;
  return (whole ? s : wf.toWellFormed()).replaceAll("\0", NUL_STANDIN);
}

// JSON text (as JSON.stringify writes it) holds NUL and lone surrogates only as \u escapes, so
// a text without "\u0000" or "\uD8xx"–"\uDFxx" needs nothing: the walk below runs only past it.
const MAY_NEED = /\\u(?:0000|[dD][89a-fA-F])/;
// Each escape from the left (so "\\u0000", an escaped backslash, is not read as one); a
// surrogate pair written as two escapes is whole and kept.
const ESCAPE =
  /\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|[\s\S])/g;

/** JSON text whose \u escapes of NUL and lone surrogates are written as "␀" and U+FFFD. */
export function storableJsonText(json: string): string {
  const text = storableText(json);
  if (!MAY_NEED.test(text)) return text;
  return text.replace(ESCAPE, (seq, _high, _low, hex: string | undefined) => {
    if (hex === undefined) return seq;
    const code = parseInt(hex, 16);
    if (code === 0) return NUL_STANDIN;
    return code >= 0xd800 && code <= 0xdfff ? REPLACEMENT : seq;
  });
}

/**
 * A value as it reads back once stored as JSON: storableJsonText's change made to the value (for
 * tests and for what must hash the same as its stored form). Keys that become equal keep the
 * later value, as jsonb does.
 */
export function storableValue<T>(value: T): T {
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const stored = storableJsonText(json);
  return stored === json ? value : (JSON.parse(stored) as T);
}

// Parameters cast to json or jsonb in the statement ($3::jsonb, $3::text::jsonb).
const CAST = /\$(\d+)((?:::[\w[\]]+)+)/g;

function jsonParameters(sql: string): Set<number> {
  const json = new Set<number>();
  for (const m of sql.matchAll(CAST))
    if (/::jsonb?\b/i.test(m[2] as string)) json.add(Number(m[1]) - 1);
  return json;
}

const storableItem = (v: unknown) => (typeof v === "string" ? storableText(v) : v);

/**
 * The statement's parameters as the database can store them: every string (and string in an
 * array parameter) through storableText, and those the statement reads as JSON through
 * storableJsonText. The same array when nothing needed a change, which is nearly always.
 */
export function storableParams(sql: string, params: unknown[] | undefined) {
  if (!params) return params;
  let out: unknown[] | undefined;
  let json: Set<number> | undefined;
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    let stored: unknown = v;
    if (typeof v === "string") {
      stored = storableText(v);
      if (MAY_NEED.test(v)) {
        json ??= jsonParameters(sql);
        if (json.has(i)) stored = storableJsonText(stored as string);
      }
    } else if (Array.isArray(v)) {
      const items = v.map(storableItem);
      if (items.some((item, k) => item !== v[k])) stored = items;
    }
    if (stored === v) continue;
    out ??= [...params];
    out[i] = stored;
  }
  return out ?? params;
}
