import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";
import { checkScreen, signIn } from "./helpers";

// What a reviewer does all day: start a run from the generated form, watch it live, send a
// draft back, approve, see it finish.

test("sign-in refuses a wrong password", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
});

test("start a run from the form, watch it live, request changes, approve, complete", async ({
  page,
}, info) => {
  // Five screens checked in two themes at two widths: more than the default minute on 2 cores.
  test.setTimeout(180_000);
  await signIn(page);
  await page.getByRole("link", { name: "Crews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Crews", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Reviewed draft" }).click();
  await expect(page.getByRole("heading", { name: "Reviewed draft" })).toBeVisible();

  // Required fields are checked before anything is sent.
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByText("subject is required")).toBeVisible();
  await checkScreen(page, info, "kickoff-form");

  await page.getByLabel("subject").fill("sea otters");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/review\/runs\/[0-9a-f-]{36}$/);

  // Steps arrive live, then the run waits for review.
  await expect(page.getByRole("treeitem", { name: /Thought/ }).first()).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("Awaiting review");
  await expect(page.getByRole("region", { name: "Review of draft" })).toBeVisible();
  await checkScreen(page, info, "review-panel");

  // Sending back needs feedback.
  await page.getByRole("button", { name: "Send back" }).click();
  await expect(page.getByText(/sending back needs feedback/)).toBeVisible();
  await page.getByLabel("Feedback").fill("Mention kelp forests.");
  await page.getByRole("button", { name: "Send back" }).click();
  await expect(page.getByRole("region", { name: "Review of draft" })).toContainText("Attempt 2");
  await expect(page.getByRole("treeitem", { name: /Changes requested/ })).toBeVisible();

  // Approve with the keyboard (sent once its undo window has passed), then the last task with the button.
  await page.getByRole("heading", { name: /Output of “draft”/ }).click();
  await page.keyboard.press("a");
  await expect(page.getByRole("region", { name: "Review of polish" })).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("Completed");
  await expect(page.getByRole("heading", { name: "Result" })).toBeVisible();
  await checkScreen(page, info, "run-completed");

  // The decision ledger: six entries (three requests, three decisions), chained and verified.
  const ledger = page.getByRole("region", { name: "Decision ledger" });
  await expect(ledger.getByText("Chain intact")).toBeVisible();
  await expect(ledger.getByRole("link", { name: "Export JSON" })).toHaveAttribute(
    "href",
    /\/ledger\?download=1$/,
  );
  await ledger.getByRole("button", { name: "Show 6 entries" }).click();
  const entries = ledger.getByRole("list", { name: "Ledger entries" }).getByRole("listitem");
  await expect(entries).toHaveCount(6);
  await expect(entries.nth(1)).toContainText("Sent back");
  await expect(entries.nth(3)).toContainText("Approved");
  await checkScreen(page, info, "run-ledger");
});
