import crypto from "node:crypto";
import { env } from "./env";
import { dataDirSecret } from "./secrets";

// Secrets saved in the database (a Linear key, later remote tokens) are sealed with AES-256-GCM
// under a key derived from AUTH_SECRET, or from a key generated into DATA_DIR. A database dump
// alone reveals none of them.
function key() {
  const material = env().AUTH_SECRET ?? dataDirSecret("encryption-key");
  return Buffer.from(crypto.hkdfSync("sha256", material, "crewdeck", "settings-encryption", 32));
}

export function seal(plain: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    body.toString("base64url"),
  ].join(".");
}

export function unseal(sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) throw new Error("not a sealed value");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([
    decipher.update(Buffer.from(body, "base64url")),
    decipher.final(),
  ]).toString("utf8");
}

/** A secret derived for `purpose` (e.g. one run's webhook URLs): recomputable, never stored. */
export function derivedSecret(purpose: string): string {
  return crypto.createHmac("sha256", key()).update(purpose).digest("base64url").slice(0, 32);
}
