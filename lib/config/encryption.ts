import crypto from "node:crypto";
import { env } from "./env";
import { dataDirSecret, existingDataDirSecret } from "./secrets";

// Secrets saved in the database (deployment tokens, Linear keys and OAuth tokens) are sealed with
// AES-256-GCM, so a database dump alone reveals none of them.
//
// The key is its own: ENCRYPTION_KEY, else one generated into DATA_DIR. (It used to be derived
// from AUTH_SECRET, so rotating the session secret made every sealed value unreadable.)
// ENCRYPTION_KEY may list several keys, comma-separated: the first seals, all unseal, so a key is
// rotated by putting the new one first, running `npm run secrets:reseal`, then dropping the old.
// A sealed value names its key: v2.<key id>.<iv>.<tag>.<ciphertext>.
//
// Values sealed before (v1, no key id) stay readable: the old AUTH_SECRET-derived key (or the
// DATA_DIR file it fell back to) is kept for unsealing only, until everything is resealed.

type Key = { id: string; key: Buffer };
type Ring = { current: Key; all: Map<string, Key>; legacy: Buffer[] };

const hkdf = (material: string, info: string) =>
  Buffer.from(crypto.hkdfSync("sha256", material, "crewdeck", info, 32));

// The id is a fingerprint of the key, not the key: listing keys in any order keeps ids stable.
function keyOf(material: string): Key {
  const id = crypto
    .createHash("sha256")
    .update(`crewdeck-key-id:${material}`)
    .digest("base64url")
    .slice(0, 8);
  return { id, key: hkdf(material, "sealing-v2") };
}

let warned = false;
let cached: { raw: string | undefined; ring: Ring } | undefined;

function ring(): Ring {
  const { ENCRYPTION_KEY, AUTH_SECRET } = env();
  if (cached && cached.raw === ENCRYPTION_KEY) return cached.ring;
  const materials = ENCRYPTION_KEY
    ? ENCRYPTION_KEY.split(",")
        .map((k) => k.trim())
        .filter(Boolean)
    : [dataDirSecret("sealing-key")];
  if (!ENCRYPTION_KEY && env().DATABASE_URL && !warned) {
    warned = true;
    console.warn(
      "[crewdeck] ENCRYPTION_KEY is unset: secrets are sealed with a key generated into DATA_DIR. " +
        "Every process sharing this database needs that same file, or set the same ENCRYPTION_KEY.",
    );
  }
  const keys = materials.map(keyOf);
  const legacyMaterial = [AUTH_SECRET, existingDataDirSecret("encryption-key")].filter(
    (m): m is string => Boolean(m),
  );
  const [current] = keys;
  if (!current) throw new Error("no encryption key to seal with");
  const built: Ring = {
    current,
    all: new Map(keys.map((k) => [k.id, k])),
    legacy: legacyMaterial.map((m) => hkdf(m, "settings-encryption")),
  };
  cached = { raw: ENCRYPTION_KEY, ring: built };
  return built;
}

/** The id of the key that seals now (shown by the reseal command). */
export const currentKeyId = () => ring().current.id;

export function seal(plain: string): string {
  const { current } = ring();
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", current.key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [
    "v2",
    current.id,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

function openWith(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([
    decipher.update(Buffer.from(body, "base64url")),
    decipher.final(),
  ]).toString("utf8");
}

export function unseal(sealed: string): string {
  const [version, ...parts] = sealed.split(".");
  if (version === "v2" && parts.length === 4) {
    const [id = "", iv = "", tag = "", body = ""] = parts;
    const key = ring().all.get(id);
    if (!key)
      throw new Error(`sealed with key ${id}, which is not in ENCRYPTION_KEY (was it dropped?)`);
    return openWith(key.key, iv, tag, body);
  }
  if (version === "v1" && parts.length === 3) {
    const [iv = "", tag = "", body = ""] = parts;
    // No key id: whichever legacy key opens it (GCM's tag tells a wrong key apart).
    for (const key of ring().legacy) {
      try {
        return openWith(key, iv, tag, body);
      } catch {
        // not this one
      }
    }
    throw new Error("sealed under the old AUTH_SECRET-derived key, which is no longer available");
  }
  throw new Error("not a sealed value");
}

/** Whether a sealed value is under the key that seals now (else `npm run secrets:reseal`). */
export function isCurrent(sealed: string): boolean {
  const parts = sealed.split(".");
  return parts[0] === "v2" && parts[1] === ring().current.id;
}

export const looksSealed = (value: string) =>
  /^v1(\.[A-Za-z0-9_-]*){3}$|^v2(\.[A-Za-z0-9_-]*){4}$/.test(value);

/** A secret derived for `purpose` (e.g. one run's webhook URLs): recomputable, never stored. */
export function derivedSecret(purpose: string): string {
  return derive(ring().current.key, purpose);
}

/**
 * Whether `given` is the secret derived for `purpose` under any key still held: URLs handed out
 * before a rotation (or before the upgrade, under the legacy key) keep working until dropped.
 */
export function derivedSecretMatches(purpose: string, given: string): boolean {
  const { all, legacy } = ring();
  const candidates = [...[...all.values()].map((k) => k.key), ...legacy];
  const wanted = Buffer.from(given);
  return candidates.some((key) => {
    const expected = Buffer.from(derive(key, purpose));
    return expected.length === wanted.length && crypto.timingSafeEqual(expected, wanted);
  });
}

const derive = (key: Buffer, purpose: string) =>
  crypto.createHmac("sha256", key).update(purpose).digest("base64url").slice(0, 32);
