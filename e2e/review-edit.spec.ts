import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// Edit before approve, in the browser: the reviewer rewrites the draft, previews it, approves
// the edit, and the next task gets it.
test("a reviewer edits the output, previews it and approves the edit", async ({ page }, info) => {
  await signIn(page);
  await page.goto("/crews/review");
  await page.getByLabel("subject").fill("herons");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/crews\/review\/runs\/[0-9a-f-]{36}$/);
  const review = page.getByRole("region", { name: "Review of draft" });
  await expect(review).toBeVisible();

  await review.getByRole("button", { name: "Edit output" }).click();
  const editor = review.getByLabel("Edited output (Markdown)");
  await editor.fill("## Herons\n\nThey stand **very** still. (Edited.)");
  await review.getByRole("button", { name: "Preview" }).click();
  await expect(review.getByText("very", { exact: true })).toBeVisible();
  await checkScreen(page, info, "review-edit-preview");

  // An edit is approved, not sent back.
  await review.getByRole("button", { name: "Send back" }).click();
  await expect(review.getByText(/Edits are approved, not sent back/)).toBeVisible();

  await review.getByRole("button", { name: "Approve edited" }).click();
  // The next task's review shows up once the approval (after its undo window) went through.
  await expect(page.getByRole("region", { name: "Review of polish" })).toBeVisible();
  // The draft's output is now the reviewer's text.
  await page.getByRole("treeitem", { name: /^draft/ }).click();
  await expect(page.getByText("(Edited.)").first()).toBeVisible();
  // The agent's own attempt stays, and the edit is a revision of its own, labelled, with the diff.
  const compare = page.getByRole("region", { name: /^draft: Attempt 1 → Edited by .+$/ });
  await expect(compare).toBeVisible();
  await expect(compare).toContainText(/Edited by \S+ before approving/);
  await checkScreen(page, info, "review-edit-revision");
});
