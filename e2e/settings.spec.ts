import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Settings as an administrator uses it: every tab in the URL, a token created and copied once,
// a deployment edited without retyping its token, the delivery log a page at a time.
const ORG_TOKEN = "e2e-org-token-0123456789abcdef";

test("settings: tabs, a token copied once, a deployment edited, deliveries paged", async ({
  page,
  context,
  request,
  baseURL,
}, info) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const headers = { authorization: `Bearer ${ORG_TOKEN}` };
  // Deliveries to a closed loopback port (playwright.config allows loopback webhooks): they stay
  // in the log, retrying, with a secret in their URL that the log must not show.
  const hook = (kind: string) => `http://127.0.0.1:9/${kind}?token=hide-me-please&crew=brief`;
  for (let i = 0; i < 4; i++) {
    const r = await request.post("/api/crews/brief/kickoff", {
      headers,
      data: {
        inputs: { topic: `Settings ${i}`, audience: "admins" },
        stepWebhookUrl: hook("step"),
        taskWebhookUrl: hook("task"),
        crewWebhookUrl: hook("crew"),
      },
    });
    expect(r.status(), await r.text()).toBe(200);
  }

  await signIn(page);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

  // Tokens: created, shown once with Copy.
  await page.getByLabel("Label", { exact: true }).fill("e2e settings");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent()) ?? "";
  expect(token).toMatch(/^cdo_/);
  await expect(page.getByText("Copy it now: it is shown once")).toBeVisible();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expect(page.getByRole("table", { name: "API tokens" })).toContainText("e2e settings");
  await checkScreen(page, info, "settings-tokens");

  // Each tab is in the URL, so a reload (or a shared link) opens it again.
  await page.getByRole("tab", { name: "People" }).click();
  await expect(page).toHaveURL(/\?tab=people/);
  await expect(page.getByRole("table", { name: "Users" })).toContainText("admin@example.com");
  await page.reload();
  await expect(page.getByRole("tab", { name: "People", selected: true })).toBeVisible();
  // An empty team list reads as empty, not as an example that looks like a value.
  const teams = page.getByLabel("Teams of admin@example.com");
  await expect(teams).toHaveValue("");
  await expect(teams).toHaveAttribute("placeholder", "No teams");
  await checkScreen(page, info, "settings-people");

  // Deployments: add one (this very server), edit it with the token left blank, test it.
  await page.getByRole("tab", { name: "Deployments" }).click();
  await expect(page).toHaveURL(/\?tab=deployments/);
  const add = page.getByRole("form", { name: "Add a deployment" });
  await add.getByLabel("Name").fill("Loopback brief");
  await add.getByLabel("Base URL").fill(`${baseURL}/api/crews/brief`);
  await add.getByLabel("Bearer token").fill(ORG_TOKEN);
  await add.getByRole("button", { name: "Add deployment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Connected · inputs:" })).toBeVisible();
  await page.getByRole("button", { name: "Edit Loopback brief" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Loopback brief" });
  await expect(edit.getByLabel("Bearer token")).toHaveValue("");
  await edit.getByLabel("Name").fill("Brief on loopback");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Brief on loopback" })).toBeVisible();
  // The saved token was kept: the re-test after saving connects.
  await expect(page.getByRole("status").filter({ hasText: "Connected · inputs:" })).toBeVisible();
  await checkScreen(page, info, "settings-deployments");

  // Webhooks: the delivery log, newest first, a page at a time, no secret in any URL.
  await page.getByRole("tab", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\?tab=webhooks/);
  const log = page.getByRole("table", { name: "Webhook deliveries" });
  await expect(log).toBeVisible();
  await expect(log).toContainText("REDACTED");
  await expect(page.getByText("hide-me-please")).toHaveCount(0);
  await expect(log.getByRole("link", { name: /^Brief · / }).first()).toHaveAttribute(
    "href",
    /^\/crews\/brief\/runs\/[0-9a-f-]{36}$/,
  );
  // Each attempt on demand: when, how long, what came back (a closed port: no answer, and why).
  const tried = log.locator("summary", { hasText: /\d+ attempts?/ }).first();
  await expect(tried).toBeVisible({ timeout: 60_000 });
  await tried.click();
  const attempt = log.locator("details[open] li").first();
  await expect(attempt).toContainText("#1");
  await expect(attempt).toContainText(/\d+ ms/);
  await expect(attempt).toContainText(/refused|ECONNREFUSED|not/i);
  const pages = page.getByRole("navigation", { name: "Delivery pages" });
  const firstRow = await log.locator("tbody tr").first().textContent();
  await pages.getByRole("button", { name: "Older" }).click();
  await expect(pages).toContainText("Page 2");
  await expect(log.locator("tbody tr").first()).not.toHaveText(firstRow ?? "");
  await pages.getByRole("button", { name: "Newer" }).click();
  await expect(pages).toContainText("Page 1");
  await checkScreen(page, info, "settings-webhooks");

  // Integrations: Test connection tests the backend chosen on screen.
  await page.getByRole("tab", { name: "Integrations" }).click();
  await expect(page).toHaveURL(/\?tab=integrations/);
  await page.getByRole("radio", { name: /Embedded tracker/ }).check();
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Connected (embedded tracker)" }),
  ).toBeVisible();
  await checkScreen(page, info, "settings-integrations");

  await page.getByRole("link", { name: "Issues", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Issues", level: 1 })).toBeVisible();
  await checkScreen(page, info, "tracker");
});
