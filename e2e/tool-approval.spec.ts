import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Approval gates in the browser: the agent stops before word_count with its exact arguments;
// the reviewer edits them and approves, and the call runs with the edit. A second run's call is
// refused with a reason, which the agent reads instead of a result.
test("a reviewer edits a gated tool call's arguments and approves; another is refused", async ({
  page,
}, info) => {
  await signIn(page);
  await page.goto("/crews/gated-tools");
  await page.getByLabel("subject").fill("harbours");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/gated-tools\/runs\/[0-9a-f-]{36}$/);

  const panel = page.getByRole("region", {
    name: "Tool calls of Check the draft awaiting approval",
  });
  await expect(panel).toBeVisible();
  const call = panel.getByRole("article", { name: "Call to word_count" });
  await expect(call.getByText("harbours").first()).toBeVisible();
  await checkScreen(page, info, "tool-approval");

  await call.getByRole("button", { name: "Edit arguments" }).click();
  const editor = call.getByLabel("Arguments (JSON)");
  await editor.fill('{ "text": "not json');
  await expect(call.getByRole("alert")).toContainText("Not valid JSON");
  await expect(call.getByRole("button", { name: "Approve" })).toBeDisabled();
  // Checked against the tool's parameters as it is typed, not after the undo window.
  await editor.fill('{ "txt": "four words right here" }');
  await expect(call.getByRole("alert")).toContainText("“text” is required.");
  await expect(call.getByRole("alert")).toContainText("“txt” is not a parameter of this tool.");
  await expect(call.getByRole("button", { name: "Approve" })).toBeDisabled();
  await editor.fill('{ "text": "four words right here" }');
  await call.getByRole("button", { name: "Approve edited" }).click();
  // One confirmation, beside its Undo; no toast.
  await expect(call.getByRole("status")).toHaveText("Runs word_count in 5 seconds");
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  // After the undo window the call runs with the edit, and the run completes.
  await expect(page.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
  // The agent's answer reports what the call returned: four words, the reviewer's text.
  await expect(page.getByText(/word_count: \{"words":4,/).first()).toBeVisible();

  // Refused: the reason is what the agent reads.
  await page.goto("/crews/gated-tools");
  await page.getByLabel("subject").fill("lighthouses");
  await page.getByRole("button", { name: "Start run" }).click();
  const second = page.getByRole("region", {
    name: "Tool calls of Check the draft awaiting approval",
  });
  await expect(second).toBeVisible();
  await second.getByRole("button", { name: "Refuse" }).click();
  await expect(second.getByText(/Say why in the reason field/)).toBeVisible();
  await second.getByLabel("Reason").fill("Counting is not needed for this one.");
  await second.getByRole("button", { name: "Refuse" }).click();
  await expect(page.getByText("Completed").first()).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByText("Refused by the reviewer: Counting is not needed for this one.").first(),
  ).toBeVisible();
});
