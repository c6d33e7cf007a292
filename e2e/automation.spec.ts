import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Runs that start themselves, from the crew page: a schedule with its next five fire times, and
// a trigger whose secret is shown once and whose first delivery starts a run.

test("create a schedule and see its next fire times", async ({ page }, info) => {
  await signIn(page);
  await page.goto("/crews/no-inputs");
  const section = page.getByRole("region", { name: "Schedules" });
  const name = `Morning brief ${Date.now().toString(36)}`;
  await section.getByRole("button", { name: "New schedule" }).click();
  const dialog = page.getByRole("dialog", { name: "New schedule" });
  await dialog.getByRole("textbox", { name: "Name" }).fill(name);
  await dialog.getByRole("button", { name: "Every day 6:00" }).click();
  await dialog.getByRole("combobox", { name: "Time zone" }).fill("Europe/Berlin");
  // The next five, worked out as you type, in the schedule's zone.
  const next = dialog.getByRole("list").filter({ hasText: "06:00" });
  await expect(next.getByRole("listitem")).toHaveCount(5);
  await checkScreen(page, info, "schedule-dialog");
  // A bad expression is said on its field as you type.
  await dialog.getByRole("textbox", { name: "When" }).fill("every morning");
  await expect(dialog.getByText(/Write five fields separated by spaces/)).toBeVisible();
  await dialog.getByRole("textbox", { name: "When" }).fill("0 6 * * *");
  await dialog.getByRole("button", { name: "Save the schedule" }).click();
  await expect(dialog).toBeHidden();

  const row = section.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("0 6 * * * · Europe/Berlin");
  await expect(row).toContainText(/Next: .*06:00/);
  await row.getByRole("button", { name: "Next five and history" }).click();
  await expect(row.getByRole("list").first().getByRole("listitem")).toHaveCount(5);
  await expect(row).toContainText("Nothing yet: it has not been due.");
  await checkScreen(page, info, "schedules-list");

  // Edited: another time; the next runs follow it.
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: `Edit “${name}”` });
  await edit.getByRole("textbox", { name: "When" }).fill("30 7 * * *");
  await edit.getByRole("button", { name: "Save the schedule" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText("30 7 * * * · Europe/Berlin");
  await expect(row).toContainText(/Next: .*07:30/);

  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByText("Paused", { exact: true })).toBeVisible();
  await expect(row).toContainText("no runs until resumed");
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("button", { name: "Delete schedule" }).click();
  await expect(row).toHaveCount(0);
});

test("create a trigger, see its secret once, and a delivery start a run", async ({
  page,
  request,
}, info) => {
  await signIn(page);
  await page.goto("/crews/brief");
  const section = page.getByRole("region", { name: "Triggers" });
  await section.getByRole("button", { name: "New trigger" }).click();
  const dialog = page.getByRole("dialog", { name: "New trigger" });
  const name = `Issue opened ${Date.now().toString(36)}`;
  await dialog.getByRole("textbox", { name: "Name" }).fill(name);
  await dialog.getByRole("combobox", { name: "Sender signs as" }).selectOption("github");
  await dialog.getByRole("textbox", { name: "topic" }).fill("$.issue.title");
  await dialog.getByRole("textbox", { name: "audience" }).fill('payload.repository.name + " team"');
  await checkScreen(page, info, "trigger-dialog");
  await dialog.getByRole("button", { name: "Create trigger" }).click();

  const created = page.getByRole("dialog", { name: `Trigger “${name}” created` });
  const secret = (await created.getByTestId("trigger-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  await checkScreen(page, info, "trigger-secret");
  await created.getByRole("button", { name: "Done" }).click();
  const row = section.getByRole("listitem").filter({ hasText: name });
  await expect(row).toContainText("topic ← $.issue.title");
  await expect(page.getByText(secret)).toHaveCount(0); // shown once

  // GitHub delivers an issue, signed with the secret.
  const address = ((await row.locator("code").first().textContent()) ?? "").replace(/^POST /, "");
  const body = JSON.stringify({
    issue: { title: "Crash on start" },
    repository: { name: "widgets" },
  });
  const res = await request.post(new URL(address).pathname, {
    headers: {
      "content-type": "application/json",
      "x-github-delivery": crypto.randomUUID(),
      "x-hub-signature-256": `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`,
    },
    data: body,
  });
  expect(res.status()).toBe(202);

  await expect(row).toContainText("Started a run", { timeout: 15_000 });
  await row.getByRole("button", { name: "Deliveries" }).click();
  await checkScreen(page, info, "trigger-deliveries");
  await row.getByRole("link", { name: /^run / }).first().click();
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(page.getByText(`trigger ${name}`).first()).toBeVisible();
  await expect(page.getByTestId("step-detail")).toContainText("Crash on start");

  // Its mapping edited later: who signs stays, the secret too.
  await page.goBack();
  await row.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: `Edit “${name}”` });
  await expect(edit.getByRole("combobox", { name: "Sender signs as" })).toBeDisabled();
  await edit
    .getByRole("textbox", { name: "audience" })
    .fill('"maintainers of " + payload.repository.name');
  await edit.getByRole("button", { name: "Save the trigger" }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('audience ← "maintainers of " + payload.repository.name');
});
