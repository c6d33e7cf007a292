import { errorMessage } from "@/lib/errors";
import { parseJsonText } from "@/lib/http/read-json";
import type { InputScalar, InputSpec } from "./input-schema";

// One value for one typed input: from what a client (or the crew's YAML) gave to what the engine
// stores. Strings that spell the type are accepted, since form posts and shells send strings.

export type Coerced = { ok: true; value: InputScalar } | { ok: false; message: string };

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const ok = (value: InputScalar): Coerced => ({ ok: true, value });
const fail = (message: string): Coerced => ({ ok: false, message });
const isScalar = (v: unknown): v is InputScalar =>
  typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** A real calendar day written YYYY-MM-DD (2024-02-30 is not one). */
export function isIsoDate(s: string) {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `raw` is present (not undefined, null or ""): missing values are the caller's business. */
export function coerceInput(spec: InputSpec, raw: unknown): Coerced {
  switch (spec.type) {
    case "string":
    case "text":
      return isScalar(raw) ? ok(String(raw)) : fail("must be a string");
    case "number": {
      if (typeof raw === "number") return Number.isFinite(raw) ? ok(raw) : fail("must be a number");
      if (typeof raw === "string" && NUMBER.test(raw.trim())) return ok(Number(raw.trim()));
      return fail("must be a number");
    }
    case "boolean": {
      if (typeof raw === "boolean") return ok(raw);
      const s = typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (s === "true" || s === "false") return ok(s === "true");
      return fail("must be true or false");
    }
    case "enum": {
      const options = spec.options ?? [];
      const s = typeof raw === "string" || typeof raw === "number" ? String(raw) : undefined;
      if (s !== undefined && options.includes(s)) return ok(s);
      return fail(`must be one of: ${options.join(", ")}`);
    }
    case "date": {
      // YAML 1.1 readers turn an unquoted 2024-05-01 into a Date; take its day.
      const s = raw instanceof Date ? raw.toISOString().slice(0, 10) : raw;
      if (typeof s === "string" && isIsoDate(s.trim())) return ok(s.trim());
      return fail("must be a date written YYYY-MM-DD");
    }
    case "json": {
      if (typeof raw !== "string") return ok(JSON.stringify(raw));
      // Held to a body's own checks (depth, NUL, lone surrogates): it is one, given as text.
      try {
        return ok(JSON.stringify(parseJsonText(raw, "the text")));
      } catch (err) {
        return fail(`must be valid JSON (${errorMessage(err)})`);
      }
    }
  }
}
