import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";

// The sign-in page's ?next= in a real browser: Chromium strips tab and newline and reads `\` as
// `/` before it resolves a redirect, so a target the server thought was a path can leave the site.
// Whatever ?next= says, signing in ends on our own origin.
const hex = (c: string) => `U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
const second = (chars: string[]) =>
  chars.map((c): [string, string] => [`${hex(c)} second`, `/${c}/evil.test/phish`]);

const GROUPS: Record<string, [string, string][]> = {
  "C0 controls": second(Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i))),
  "DEL and C1 controls": second([
    "\x7f",
    ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
  ]),
  "look-alikes and invisibles": second([
    "\uff0f",
    "\u2215",
    "\u2044",
    "\uff3c",
    "\u3002",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\u200b",
    "\ufeff",
  ]),
  "open-redirect spellings": [
    "//evil.test",
    "/\\evil.test",
    "/%2F/evil.test",
    "/%5Cevil.test",
    "https://evil.test",
    "javascript:alert(1)",
    "/%09/evil.test",
    "\\/evil.test",
    "/ /evil.test",
    "/.//evil.test",
  ].map((next): [string, string] => [next, next]),
};

/** Signs in from /sign-in?next=…: the URL the browser lands on, or why sign-in failed. */
async function landing(page: Page, origin: string, next: string) {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sign-in",
    ),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  if (answer.status() >= 400) return `the sign-in action answered ${answer.status()}`;
  await page.waitForURL((url) => url.origin !== origin || url.pathname !== "/sign-in", {
    waitUntil: "commit",
  });
  return page.url();
}

// Cases run on a few tabs at once: a sign-in costs the server a password hash and a dashboard
// render. Four at a time stays well inside the sign-in hash gate's queue (lib/auth/sign-in-gate.ts).
const TABS = 4;

for (const [group, cases] of Object.entries(GROUPS)) {
  test(`sign-in stays on the site: ?next= with ${group}`, async ({ context, baseURL }) => {
    test.setTimeout(180_000);
    const origin = new URL(baseURL as string).origin;
    // Nothing leaves the machine: another origin is answered here, and noted.
    const offSite: string[] = [];
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        offSite.push(route.request().url());
        return route.fulfill({ status: 200, contentType: "text/html", body: "off-site" });
      },
    );
    const wrong: string[] = [];
    const queue = [...cases];
    await Promise.all(
      Array.from({ length: TABS }, async () => {
        const page = await context.newPage();
        for (let item = queue.shift(); item; item = queue.shift()) {
          const [label, next] = item;
          const url = await landing(page, origin, next);
          if (!url.startsWith(`${origin}/`)) wrong.push(`${label} → ${url}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(offSite).toEqual([]);
  });
}
