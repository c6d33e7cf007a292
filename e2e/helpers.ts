import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";
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

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}

/**
 * The screen as every user meets it: light and dark, 1280 px and 390 px. In each, no serious or
 * critical accessibility violation (axe, WCAG 2 A/AA) and nothing wider than the viewport; a
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
        expect(await axeViolations(page), `axe: ${where}`).toEqual([]);
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
