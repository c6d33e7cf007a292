import { expect, test } from "@playwright/test";
import { startFakeLinear } from "../tests/support/fake-linear";
import { checkScreen, signIn } from "./helpers";

// Connect Linear from the Integrations settings: save the OAuth application, click Connect Linear,
// approve (or deny) on the provider's consent page, land back with the outcome shown.
let fake: Awaited<ReturnType<typeof startFakeLinear>>;
test.beforeAll(async () => {
  // The dashboard under test reads LINEAR_OAUTH_* from playwright.config.ts: a fixed port.
  fake = await startFakeLinear({
    oauth: { clientId: "e2e-client", clientSecret: "e2e-secret" },
    port: Number(process.env.E2E_FAKE_LINEAR_PORT ?? 3219),
  });
});
test.afterAll(async () => {
  await fake?.close();
});

test("Connect Linear: deny shows why, approve connects, Disconnect forgets", async ({
  page,
}, info) => {
  await signIn(page);
  await page.goto("/settings?tab=integrations");
  const section = page.getByRole("region", { name: "Linear (OAuth)" });
  const form = section.getByRole("form", { name: "Linear OAuth application" });
  await form.getByLabel("Client ID").fill("e2e-client");
  await form.getByLabel("Client secret").fill("e2e-secret");
  await form.getByRole("button", { name: "Save OAuth application" }).click();

  await section.getByRole("link", { name: "Connect Linear" }).click();
  await expect(page.getByRole("heading", { name: "Fake Linear wants to connect" })).toBeVisible();
  await page.getByRole("link", { name: "Deny" }).click();
  await expect(section.getByRole("alert")).toContainText("Access was denied");

  await section.getByRole("link", { name: "Connect Linear" }).click();
  await page.getByRole("link", { name: "Approve" }).click();
  await expect(section.getByRole("status")).toContainText("Linear is connected: Fake Workspace");
  await expect(section).toContainText("Connected to Fake Workspace by admin@example.com");
  await checkScreen(page, info, "settings-linear-connected");

  await section.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click();
  await expect(section.getByRole("link", { name: "Connect Linear" })).toBeVisible();
  await expect(section).toContainText("Not connected");
});
