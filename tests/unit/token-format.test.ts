import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  displayPrefix,
  generateToken,
  hashToken,
  looksLikeToken,
  safeEqual,
  TOKEN_PREFIX,
  type TokenKind,
} from "@/lib/auth/token-format";

const KINDS: [TokenKind, string][] = [
  ["org", "cdo_"],
  ["user", "cdu_"],
];

describe("generateToken", () => {
  it.each(KINDS)("a %s token starts with %s and looks like a token", (kind, prefix) => {
    expect(TOKEN_PREFIX[kind]).toBe(prefix);
    const token = generateToken(kind);
    expect(token.startsWith(prefix)).toBe(true);
    // 32 random bytes in base64url: 43 characters, no padding
    expect(token).toHaveLength(prefix.length + 43);
    expect(token.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(looksLikeToken(token)).toBe(true);
  });

  it.each(KINDS)("%s tokens are unique", (kind) => {
    const tokens = new Set(Array.from({ length: 500 }, () => generateToken(kind)));
    expect(tokens.size).toBe(500);
  });

  it("org and user tokens differ in their prefix", () => {
    expect(generateToken("org").slice(0, 4)).not.toBe(generateToken("user").slice(0, 4));
  });
});

describe("looksLikeToken", () => {
  const body = "a".repeat(43);
  it.each([
    { token: `cdo_${body}`, want: true },
    { token: `cdu_${body}`, want: true },
    { token: `cdo_${"-_Az09".repeat(7)}x`, want: true },
    { token: `cdx_${body}`, want: false },
    { token: `CDO_${body}`, want: false },
    { token: body, want: false },
    { token: `cdo_${"a".repeat(42)}`, want: false },
    { token: `cdo_${"a".repeat(44)}`, want: false },
    { token: `cdo_${"a".repeat(42)}=`, want: false },
    { token: `cdo_${"a".repeat(42)}+`, want: false },
    { token: ` cdo_${body}`, want: false },
    { token: `cdo_${body}\n`, want: false },
    { token: "", want: false },
  ])("$token → $want", ({ token, want }) => {
    expect(looksLikeToken(token)).toBe(want);
  });
});

describe("hashToken", () => {
  it("is the SHA-256 hex digest", () => {
    // sha256("abc"), from FIPS 180-2
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    const token = generateToken("org");
    expect(hashToken(token)).toBe(crypto.createHash("sha256").update(token).digest("hex"));
  });

  it("is stable and 64 lowercase hex characters", () => {
    const token = generateToken("user");
    const h = hashToken(token);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).toBe(h);
  });

  it("differs for different tokens", () => {
    expect(hashToken(generateToken("org"))).not.toBe(hashToken(generateToken("org")));
    expect(hashToken("a")).not.toBe(hashToken("b"));
  });
});

describe("safeEqual", () => {
  const h = hashToken("one");
  it.each([
    { name: "same hash", a: h, b: hashToken("one"), want: true },
    { name: "different hash", a: h, b: hashToken("two"), want: false },
    {
      name: "one character changed",
      a: h,
      b: `${h.slice(0, -1)}${h.endsWith("0") ? "1" : "0"}`,
      want: false,
    },
    { name: "shorter", a: h, b: h.slice(0, 32), want: false },
    { name: "longer", a: h, b: `${h}00`, want: false },
    { name: "empty vs hash", a: "", b: h, want: false },
    { name: "hash vs empty", a: h, b: "", want: false },
    { name: "same short hex", a: "00ff", b: "00ff", want: true },
    { name: "case matters", a: "ABCD", b: "abcd", want: false },
    { name: "non-hex strings that differ", a: "not-hex", b: "also bad", want: false },
    { name: "prefixes that decode alike as hex", a: "abc", b: "abd", want: false },
    { name: "non-hex vs empty", a: "zz", b: "", want: false },
  ])("$name → $want", ({ a, b, want }) => {
    expect(safeEqual(a, b)).toBe(want);
  });
});

describe("displayPrefix", () => {
  it("shows the kind prefix and a few characters, not the secret", () => {
    const token = generateToken("org");
    const shown = displayPrefix(token);
    expect(shown).toBe(`${token.slice(0, 10)}…`);
    expect(shown.startsWith("cdo_")).toBe(true);
    expect(shown.length).toBeLessThan(token.length / 2);
  });
});
