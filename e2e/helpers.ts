import fs from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page, type TestInfo } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

declare global {
  interface Window {
    axe?: { run(options: RunOptions): Promise<AxeResults> };
  }
}

import { E2E_ADMIN } from "../playwright.config";

export async function signIn(page: Page, { email, password } = E2E_ADMIN) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: /^Account:/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
}

const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);
const AXE_OPTIONS: RunOptions = {
  runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] },
  // Only violations are read: passes and inapplicable rules need not list every node.
  resultTypes: ["violations"],
};
// The dark theme changes colours only, never the page's elements: its screens are held to the
// rules that read colours (WCAG 2 A/AA's two), the light ones to all of them.
const THEME_AXE_OPTIONS: Record<"light" | "dark", RunOptions> = {
  light: AXE_OPTIONS,
  dark: {
    ...AXE_OPTIONS,
    runOnly: { type: "rule", values: ["color-contrast", "link-in-text-block"] },
  },
};

// axe-core runs in the page itself, injected once per document. AxeBuilder injects it afresh on
// every call and finishes each run in a new blank page (for cross-origin frames, which the
// dashboard has none of): the same rules at about twice the cost, four times per screen.
async function axeViolations(page: Page, options: RunOptions) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((options) => {
    if (!window.axe) throw new Error("axe-core did not load in the page");
    return window.axe.run(options);
  }, options);
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/**
 * The screen as every user meets it: light and dark, 1280 px and 390 px. In each, no serious or
 * critical accessibility violation (axe, WCAG 2 A/AA; in dark, its colour rules) and nothing
 * wider than the viewport; a
 * full-page screenshot of each is kept (test-results/e2e/…/<name>-<theme>-<width>.png).
 */
export async function checkScreen(page: Page, info: TestInfo, name: string) {
  const original = page.viewportSize();
  // Themes switch at once here: a colour transition or a pulsing badge caught half-way would read
  // as low contrast, so motion is off while the screen is checked (until the next navigation).
  await page.addStyleTag({
    content: "*, *::before, *::after { transition: none !important; animation: none !important; }",
  });
  try {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const size of WIDTHS) {
        await page.setViewportSize({ width: size.width, height: size.height });
        const where = `${name} (${theme}, ${size.width} px)`;
        expect(await axeViolations(page, THEME_AXE_OPTIONS[theme]), `axe: ${where}`).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `horizontal scroll: ${where}`).toBeLessThanOrEqual(0);
        await page.screenshot({
          path: info.outputPath(`${name}-${theme}-${size.name}.png`),
          fullPage: true,
        });
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: "light" });
    if (original) await page.setViewportSize(original);
  }
}
