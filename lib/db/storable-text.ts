/**
 * Text the database can store. PostgreSQL refuses NUL (U+0000) in text and jsonb (22P05, 22021)
 * and lone UTF-16 surrogates in jsonb; any web page, model or tool may send either, and one
 * refused write would end the run. Every parameter goes through `storableParams` (lib/db/open.ts):
 * NUL becomes "␀" (U+2400, visible, so the reader sees something was there) and a lone surrogate
 * U+FFFD, in string values and object keys alike. Everything else is left as it was.
 */

import type { z } from "zod";

const NUL_STANDIN = "\u2400";
const REPLACEMENT = "\ufffd";

// ES2024's String methods (Node 20 has them; the project's TypeScript lib is ES2023).
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** `s` with NUL as "␀" and each lone surrogate as U+FFFD; `s` itself when it has neither. */
export function storableText(s: string): string {
  const whole = s.isWellFormed();
  if (whole && !s.includes("\0")) return s;
  return (whole ? s : s.toWellFormed()).replaceAll("\0", NUL_STANDIN);
}

// JSON text (as JSON.stringify writes it) holds NUL and lone surrogates only as \u escapes, so
// a text without "\u0000" or "\uD8xx"–"\uDFxx" needs nothing: the walk below runs only past it.
const MAY_NEED = /\\u(?:0000|[dD][89a-fA-F])/;
// A plain search first: far cheaper than the pattern, and nearly every text has no "\u" at all.
const mayNeed = (json: string) => json.includes("\\u") && MAY_NEED.test(json);
// Each escape from the left (so "\\u0000", an escaped backslash, is not read as one); a
// surrogate pair written as two escapes is whole and kept.
const ESCAPE =
  /\\(?:u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|[\s\S])/g;

/** JSON text whose \u escapes of NUL and lone surrogates are written as "␀" and U+FFFD. */
export function storableJsonText(json: string): string {
  // Only escapes: JSON.stringify writes NUL and lone surrogates no other way (a raw NUL would
  // not be JSON).
  if (!mayNeed(json)) return json;
  return json.replace(ESCAPE, (seq, _high, _low, hex: string | undefined) => {
    if (hex === undefined) return seq;
    const code = parseInt(hex, 16);
    if (code === 0) return NUL_STANDIN;
    return code >= 0xd800 && code <= 0xdfff ? REPLACEMENT : seq;
  });
}

/**
 * A value as it reads back once stored as JSON: storableJsonText's change made to the value (for
 * tests and for what must hash the same as its stored form). Keys that become equal keep the
 * later value, as jsonb does. With a schema, what reads back is parsed through it.
 */
export function storableValue(value: unknown): unknown;
export function storableValue<T>(value: T, schema: z.ZodType<T>): T;
export function storableValue(value: unknown, schema?: z.ZodType): unknown {
  const json = JSON.stringify(value);
  if (json === undefined) return value;
  const stored = storableJsonText(json);
  if (stored === json) return value;
  const back: unknown = JSON.parse(stored);
  return schema ? schema.parse(back) : back;
}

// Whether the statement reads parameter i as JSON ($3::jsonb, $3::json, $3::text::jsonb)
// ("$1::json" is no part of "$12::json").
const readAsJson = (sql: string, i: number) =>
  sql.includes(`$${i + 1}::json`) || sql.includes(`$${i + 1}::text::json`);

const LONG = 256;

/**
 * The statement's parameters as the database can store them: those it reads as JSON through
 * storableJsonText, every other string (and string in an array parameter) through storableText
 * (PGlite's own UTF-8 encoding is not safe with a lone surrogate). The same array when nothing
 * needed a change, which is nearly always. Each string costs a search or two, and the statement
 * is searched only for a long string or one with a \u escape: in bench/engine-in-process.ts,
 * about a quarter of what JSON.parse and JSON.stringify of the same parameters take.
 */
export function storableParams(sql: string, params: unknown[] | undefined): unknown[] | undefined {
  if (!params) return params;
  let out: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    let stored: unknown = v;
    if (typeof v === "string") {
      // A long one is most likely JSON (a run's tasks, an event's data): one search, not two.
      if (v.length >= LONG && readAsJson(sql, i)) stored = storableJsonText(v);
      else {
        const text = storableText(v);
        stored = mayNeed(v) && readAsJson(sql, i) ? storableJsonText(text) : text;
      }
    } else if (
      Array.isArray(v) &&
      v.some((item) => typeof item === "string" && !isStorable(item))
    ) {
      stored = v.map((item) => (typeof item === "string" ? storableText(item) : item));
    } else if (
      v !== null &&
      typeof v === "object" &&
      !(v instanceof Date) &&
      !ArrayBuffer.isView(v)
    ) {
      // The drivers write a plain object as JSON; the code here passes JSON text instead, so this
      // only keeps a future object parameter from slipping past.
      stored = storableValue(v);
    }
    if (stored === v) continue;
    out ??= [...params];
    out[i] = stored;
  }
  return out ?? params;
}

const isStorable = (s: string) => storableText(s) === s;
