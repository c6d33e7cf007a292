import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// The sealing key ring: its own key (not AUTH_SECRET), versioned, rotatable, and still opening
// what the AUTH_SECRET-derived key sealed before the upgrade.
const AUTH_A = "auth-secret-a-0123456789abcdef0123456789";
const AUTH_B = "auth-secret-b-0123456789abcdef0123456789";
const KEY_1 = "encryption-key-one-0123456789abcdef0123";
const KEY_2 = "encryption-key-two-0123456789abcdef0123";
const saved = { ...process.env };

/** A fresh copy of the module under the given environment (env() is read once per module). */
async function withEnv(vars: Record<string, string | undefined>) {
  process.env = { ...saved, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "seal-")), ...vars };
  vi.resetModules();
  return import("@/lib/config/encryption");
}
afterEach(() => {
  process.env = { ...saved };
});

// Exactly what lib/config/encryption.ts wrote before: v1, key from AUTH_SECRET.
function legacySeal(authSecret: string, plain: string) {
  const key = Buffer.from(
    crypto.hkdfSync("sha256", authSecret, "crewdeck", "settings-encryption", 32),
  );
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((p) => p.toString("base64url")).join(".");
}

describe("sealing secrets", () => {
  it("does not depend on AUTH_SECRET: rotating the session secret keeps secrets readable", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "seal-"));
    const before = await withEnv({ AUTH_SECRET: AUTH_A, DATA_DIR: dataDir });
    const sealed = before.seal("deployment token");
    const after = await withEnv({ AUTH_SECRET: AUTH_B, DATA_DIR: dataDir });
    expect(after.unseal(sealed)).toBe("deployment token");
  });

  it("still opens values sealed under the AUTH_SECRET-derived key, and seals anew", async () => {
    const legacy = legacySeal(AUTH_A, "old linear key");
    const m = await withEnv({ AUTH_SECRET: AUTH_A, ENCRYPTION_KEY: KEY_1 });
    expect(m.unseal(legacy)).toBe("old linear key");
    expect(m.isCurrent(legacy)).toBe(false);
    const fresh = m.seal("old linear key");
    expect(fresh).toMatch(/^v2\.[A-Za-z0-9_-]{8}\./);
    expect(m.isCurrent(fresh)).toBe(true);
  });

  it("rotates: the first key seals, the others still open, a dropped key is named", async () => {
    const one = await withEnv({ ENCRYPTION_KEY: KEY_1 });
    const underOne = one.seal("token");
    const both = await withEnv({ ENCRYPTION_KEY: `${KEY_2}, ${KEY_1}` });
    expect(both.unseal(underOne)).toBe("token");
    expect(both.isCurrent(underOne)).toBe(false);
    const underTwo = both.seal("token");
    expect(both.isCurrent(underTwo)).toBe(true);
    const two = await withEnv({ ENCRYPTION_KEY: KEY_2 });
    expect(two.unseal(underTwo)).toBe("token");
    expect(() => two.unseal(underOne)).toThrow(/not in ENCRYPTION_KEY/);
  });

  it("webhook URL secrets made under an older key still match", async () => {
    const legacyHmac = crypto
      .createHmac(
        "sha256",
        Buffer.from(crypto.hkdfSync("sha256", AUTH_A, "crewdeck", "settings-encryption", 32)),
      )
      .update("remote-run-hooks:r1")
      .digest("base64url")
      .slice(0, 32);
    const m = await withEnv({ AUTH_SECRET: AUTH_A, ENCRYPTION_KEY: KEY_1 });
    expect(m.derivedSecretMatches("remote-run-hooks:r1", legacyHmac)).toBe(true);
    expect(
      m.derivedSecretMatches("remote-run-hooks:r1", m.derivedSecret("remote-run-hooks:r1")),
    ).toBe(true);
    expect(m.derivedSecretMatches("remote-run-hooks:r2", legacyHmac)).toBe(false);
  });
});
