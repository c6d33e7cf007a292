import { type Browser, expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn, signOut } from "./helpers";

// Taking access away from the dashboard: the Sign out button kills the cookie for good, and an
// administrator disables, resets and removes people in Settings → Users.
const PERSON = { email: "temp-worker@example.com", password: "temp worker password" };

/** The session cookie the browser holds now. */
async function sessionCookie(page: Page) {
  const cookies = await page.context().cookies();
  const c = cookies.find((k) => k.name.endsWith("authjs.session-token"));
  if (!c) throw new Error("no session cookie");
  return c;
}

/** A fresh browser that presents `cookie`, as someone who copied it would. */
async function replay(browser: Browser, cookie: Awaited<ReturnType<typeof sessionCookie>>) {
  const context = await browser.newContext();
  await context.addCookies([cookie]);
  const page = await context.newPage();
  await page.goto("/");
  return page;
}

test("sign-out ends the session: a copy of the cookie no longer opens the dashboard", async ({
  page,
  browser,
}) => {
  await signIn(page);
  const cookie = await sessionCookie(page);
  await signOut(page);
  const copy = await replay(browser, cookie);
  await expect(copy.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(new URL(copy.url()).pathname).toBe("/sign-in");
  await copy.context().close();
});

test("an administrator disables, resets and removes a person", async ({ page, browser }, info) => {
  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("tab", { name: "People" }).click();
  await page.getByLabel("New user's email").fill(PERSON.email);
  await page.getByLabel("First password").fill(PERSON.password);
  await page.getByLabel("Role", { exact: true }).selectOption("operator");
  await page.getByRole("button", { name: "Add user" }).click();
  const users = page.getByRole("table", { name: "Users" });
  await expect(users).toContainText(PERSON.email);

  // They sign in elsewhere.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await signIn(them, PERSON);

  // Disabling and removing ask first.
  await page.getByRole("button", { name: `Disable ${PERSON.email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(page.getByRole("button", { name: `Enable ${PERSON.email}` })).toBeVisible();
  await checkScreen(page, info, "users-disabled");
  await them.reload();
  await expect(them.getByRole("button", { name: "Sign in" })).toBeVisible();

  await page.getByRole("button", { name: `Enable ${PERSON.email}` }).click();
  await expect(page.getByRole("button", { name: `Disable ${PERSON.email}` })).toBeVisible();
  await page.getByRole("button", { name: `Reset the password of ${PERSON.email}` }).click();
  await page.getByLabel(`New password for ${PERSON.email}`).fill("another long password");
  await checkScreen(page, info, "users-reset-password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByLabel(`New password for ${PERSON.email}`)).toHaveCount(0);
  await signIn(them, { email: PERSON.email, password: "another long password" });

  await page.getByRole("button", { name: `Remove ${PERSON.email}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(users).not.toContainText(PERSON.email);
  await them.reload();
  await expect(them.getByRole("button", { name: "Sign in" })).toBeVisible();
  await theirs.close();
});
