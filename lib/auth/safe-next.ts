// Only same-site paths: an open redirect after sign-in would be a phishing aid. Browsers drop or
// reinterpret some characters before resolving a path (Chromium strips tab and newline, reads `\`
// as `/`), so "/<tab>/evil.test" would become "//evil.test". Those characters are refused outright;
// what remains is normalised by the WHATWG URL parser, as a browser would, and kept only if it
// stays on the origin and is still a single-slash path.
const BASE = new URL("http://crewdeck.invalid");

// Control (C0, DEL, C1) and format characters, any whitespace or separator, and backslash.
const REFUSED = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;

/** `next` as a same-origin path (ASCII, percent-encoded), or "/" when it is anything else. */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/") || REFUSED.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE.origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.test" normalises to "//evil.test": a path again, but a protocol-relative one.
  return path.startsWith("/") && !path.startsWith("//") ? path : "/";
}

/**
 * next-auth's `redirect` callback: every sign-in and sign-out target, relative or absolute, goes
 * through safeNext; another origin is the home page.
 */
export function safeRedirect(url: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  if (url.startsWith("/")) return `${base.origin}${safeNext(url)}`;
  try {
    const target = new URL(url);
    if (target.origin !== base.origin) return `${base.origin}/`;
    return `${base.origin}${safeNext(`${target.pathname}${target.search}${target.hash}`)}`;
  } catch {
    return `${base.origin}/`;
  }
}
