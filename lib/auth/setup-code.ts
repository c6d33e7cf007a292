import crypto from "node:crypto";
import { z } from "zod";
import type { Queryable } from "@/lib/db/types";

// The one-time code that first-run setup asks for (as Jupyter prints a token): until an
// administrator exists, whoever reaches the port could otherwise claim the service. Each web
// process that starts with nobody able to sign in prints its own code; only its SHA-256 is kept,
// in the settings table, so every instance sharing one PostgreSQL accepts any of the printed codes.
// Creating the first administrator deletes them all (in the same transaction).
//
// SHA-256 and not scrypt: the code is 60 random bits, not a human password, and wrong codes are
// throttled per address.

const PREFIX = "setup-code:";
const CodeRow = z.object({ value: z.object({ sha256: z.string().optional() }) });
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read off a console

const digest = (code: string) =>
  crypto.createHash("sha256").update(normalize(code)).digest("base64url");
// Case, spaces and dashes do not matter when typed back.
const normalize = (code: string) => code.toUpperCase().replace(/[\s-]/g, "");

/** Makes and stores a new code; returns it for the console (it is not stored anywhere readable). */
export async function issueSetupCode(q: Queryable) {
  const bytes = crypto.randomBytes(12);
  const code = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  await q.query(
    "INSERT INTO settings (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING",
    [`${PREFIX}${crypto.randomUUID()}`, JSON.stringify({ sha256: digest(code) })],
  );
  return code.match(/.{4}/g)?.join("-") ?? code;
}

export async function setupCodeMatches(q: Queryable, code: string) {
  if (!normalize(code)) return false;
  const want = Buffer.from(digest(code));
  const { rows } = await q.query(
    "SELECT value FROM settings WHERE key LIKE $1",
    [`${PREFIX}%`],
    CodeRow,
  );
  return rows.some((r) => {
    const have = Buffer.from(r.value.sha256 ?? "");
    return have.length === want.length && crypto.timingSafeEqual(have, want);
  });
}

export async function clearSetupCodes(q: Queryable) {
  await q.query("DELETE FROM settings WHERE key LIKE $1", [`${PREFIX}%`]);
}
