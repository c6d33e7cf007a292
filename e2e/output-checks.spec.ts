import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// A run whose tasks have output checks: the JSON retry and the guardrail's fail → retry → pass as
// rows of the timeline, the reason in the detail, the structured result as JSON, and the run's
// files as downloads.
const TOKEN = "e2e-org-token-0123456789abcdef";

test("output checks on the run page: retries, JSON, files", async ({ page, request }, info) => {
  await signIn(page);
  const res = await request.post("/api/crews/checked/kickoff", {
    headers: { authorization: `Bearer ${TOKEN}` },
    data: { inputs: { product: "Acme kettle" } },
  });
  expect(res.ok()).toBe(true);
  const id = (await res.json()).kickoff_id as string;
  await page.goto(`/crews/checked/runs/${id}`);
  await expect(page.getByTestId("run-status")).toHaveText("Completed", { timeout: 30_000 });

  const tree = page.getByRole("tree", { name: "Tasks and steps on a time axis" });
  const tasks = tree.locator('[data-row="task"]');
  await expect(tasks.nth(0)).toContainText("1 retry after a failed check");
  await expect(tasks.nth(1)).toContainText("1 retry after a failed check");

  await tasks.nth(1).click();
  await tree.getByRole("treeitem", { name: /Guardrail failed/ }).click();
  const detail = page.getByTestId("step-detail");
  await expect(detail.getByText("1 of 2")).toBeVisible();
  await expect(detail.getByText("The summary must be at most 20 words.")).toBeVisible();
  await expect(detail.getByText(/the rule allows at most 20/)).toBeVisible();
  await expect(tree.getByRole("treeitem", { name: /Guardrail passed/ })).toBeVisible();

  await tasks.nth(0).click();
  await tree.getByRole("treeitem", { name: /Invalid JSON/ }).click();
  await expect(detail.getByText(/must NOT have additional properties/)).toBeVisible();

  // The files, each a download of what the task produced.
  const files = page.getByRole("region", { name: "Files" });
  const link = files.getByRole("link", { name: "assessments/Acme-kettle.json" });
  await expect(link).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("Acme-kettle.json");
  await checkScreen(page, info, "run-page-output-checks");
});
