import { describe, expect, it } from "vitest";
import { safeNext, safeRedirect } from "@/lib/auth/safe-next";

// The sign-in page's ?next= and every next-auth redirect target. Whatever comes out must, resolved
// by a browser against our origin, stay on it — including after the browser strips tab/newline.
const ORIGIN = "https://crew.example";
const hex = (c: string) => `U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;

const controls = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  "\x7f",
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
];
// Whitespace and invisible characters a browser or a person may read past.
const invisibles = ["\u00a0", "\u1680", "\u2000", "\u200b", "\u2028", "\u2029", "\u3000", "\ufeff"];

/** What a browser does with the path before resolving it (URL spec: strip tab and newline). */
const browserResolve = (path: string) => new URL(path.replace(/[\t\n\r]/g, ""), ORIGIN);

describe("safeNext refuses", () => {
  const refused: [string, unknown][] = [
    ["not a string", 42],
    ["empty", ""],
    ["protocol-relative", "//evil.test"],
    ["backslash second", "/\\evil.test"],
    ["backslash first", "\\/evil.test"],
    ["backslash later", "/a\\b"],
    ["absolute URL", "https://evil.test"],
    ["scheme", "javascript:alert(1)"],
    ["relative", "evil.test/x"],
    ["space second", "/ /evil.test"],
    ["dot segment to //", "/.//evil.test"],
    ["dot-dot segment to //", "/..//evil.test"],
    ["encoded dot-dot to //", "/%2e%2e//evil.test"],
  ];
  for (const c of controls) refused.push([`${hex(c)} second`, `/${c}/evil.test/phish`]);
  for (const c of controls) refused.push([`${hex(c)} later`, `/runs?x=${c}`]);
  for (const c of invisibles) refused.push([`${hex(c)} second`, `/${c}/evil.test`]);
  for (const [name, next] of refused) it(name, () => expect(safeNext(next)).toBe("/"));
});

describe("safeNext keeps same-origin paths, normalised", () => {
  const kept: [string, string][] = [
    ["/", "/"],
    ["/runs?crew=brief&status=done#top", "/runs?crew=brief&status=done#top"],
    ["/%09/evil.test", "/%09/evil.test"],
    ["/%2F/evil.test", "/%2F/evil.test"],
    ["/%5Cevil.test", "/%5Cevil.test"],
    ["/a/../b", "/b"],
    ["/runs?q=é", "/runs?q=%C3%A9"],
    // Look-alikes of / \ and . are only characters of a path, percent-encoded.
    ["/\uff0fevil.test", "/%EF%BC%8Fevil.test"],
    ["/\u2215evil.test", "/%E2%88%95evil.test"],
    ["/\u2044evil.test", "/%E2%81%84evil.test"],
    ["/\uff3cevil.test", "/%EF%BC%BCevil.test"],
    ["/\u3002evil.test", "/%E3%80%82evil.test"],
  ];
  for (const [next, want] of kept) it(next, () => expect(safeNext(next)).toBe(want));
});

describe("whatever safeNext returns stays on the origin in a browser", () => {
  const inputs = [
    ...controls.map((c) => `/${c}/evil.test`),
    ...invisibles.map((c) => `/${c}/evil.test`),
    ...["\uff0f", "\u2215", "\u2044", "\uff3c", "\u3002"].map((c) => `/${c}/evil.test`),
    "/%2F/evil.test",
    "/.//evil.test",
    "/a/..//evil.test",
  ];
  for (const next of inputs) {
    it(JSON.stringify(next), () => {
      const out = safeNext(next);
      expect(out).toMatch(/^\/(?!\/)[\x21-\x7e]*$|^\/$/);
      expect(browserResolve(out).origin).toBe(ORIGIN);
    });
  }
});

describe("safeRedirect (next-auth's redirect callback)", () => {
  const cases: [string, string][] = [
    ["/runs", `${ORIGIN}/runs`],
    [`${ORIGIN}/runs?x=1`, `${ORIGIN}/runs?x=1`],
    [ORIGIN, `${ORIGIN}/`],
    ["/\t/evil.test/phish", `${ORIGIN}/`],
    [`${ORIGIN}/.//evil.test`, `${ORIGIN}/`],
    ["https://evil.test/phish", `${ORIGIN}/`],
    ["http://crew.example/runs", `${ORIGIN}/`],
    ["javascript:alert(1)", `${ORIGIN}/`],
    ["not a url", `${ORIGIN}/`],
  ];
  for (const [url, want] of cases)
    it(JSON.stringify(url), () => expect(safeRedirect(url, ORIGIN)).toBe(want));
});
