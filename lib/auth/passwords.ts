import crypto from "node:crypto";

// N=2^15, r=8, p=1: ~50 ms here, 32 MiB of memory per hash — slow enough to hurt guessing.
const PARAMS = { N: 32768, r: 8, p: 1 };
const MAXMEM = 64 * 1024 * 1024;
const KEY_LEN = 32;

export const PASSWORD_MIN_LENGTH = 10;

// crypto.scrypt is looked up at each call (not captured once) so a test can count the calls.
function scrypt(pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) =>
    crypto.scrypt(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url), so the parameters can be raised later. */
export async function hashPassword(password: string) {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEY_LEN, { ...PARAMS, maxmem: MAXMEM });
  return [
    "scrypt",
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** The parts of a stored hash, or undefined when it is not one this module wrote. */
export function parseHash(stored: string) {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash || rest.length) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(params).every((v) => Number.isInteger(v) && v > 0)) return undefined;
  return { params, salt: Buffer.from(salt, "base64url"), key: Buffer.from(hash, "base64url") };
}

export async function verifyPassword(password: string, stored: string) {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, {
    ...parsed.params,
    maxmem: MAXMEM,
  });
  return crypto.timingSafeEqual(key, parsed.key);
}

// A real hash of a random password, made with the current parameters: checked against when the
// email is unknown or the user has no password, so that answer takes as long as a wrong password
// (a hand-written constant once had a field missing and returned at once, telling which emails
// exist). Nobody can match it: the password is thrown away.
let dummy: Promise<string> | undefined;
export function dummyHash() {
  dummy ??= hashPassword(crypto.randomBytes(32).toString("base64url"));
  return dummy;
}
