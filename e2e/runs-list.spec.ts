import { expect, type Page, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// The runs list as an operator uses it: filters that live in the URL, saved views, tags, bulk
// re-run, and an empty state that says when filters hide runs. Then the overview with data.
const TOKEN = "e2e-org-token-0123456789abcdef";

async function openViews(page: Page) {
  await page.getByRole("button", { name: /Views|^brief prod$/ }).click();
}

test("runs list: filters in the URL, tags, saved views, bulk re-run, empty state", async ({
  page,
  request,
}, info) => {
  const start = async (crew: string, inputs: Record<string, string>, meta?: object) => {
    const res = await request.post(`/api/crews/${crew}/kickoff`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      data: { inputs, meta },
    });
    expect(res.ok()).toBe(true);
    return ((await res.json()) as { kickoff_id: string }).kickoff_id;
  };
  const lighthouses = await start(
    "brief",
    { topic: "lighthouses", audience: "keepers" },
    { env: "prod" },
  );
  await start("brief", { topic: "bridges", audience: "engineers" }, { env: "staging" });
  await start("failing-model", {}, { env: "prod" });

  await signIn(page);
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
  await expect(rows).toHaveCount(3);

  // Status, with the human label; the URL says it.
  await page.getByLabel("Status", { exact: true }).selectOption({ label: "Failed" });
  await expect(page).toHaveURL(/status=error/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Failing model");
  await page.getByLabel("Status", { exact: true }).selectOption({ label: "Any status" });
  await expect(rows).toHaveCount(3);

  // Crew, then a tag clicked in a row.
  await page.getByLabel("Crew", { exact: true }).selectOption("brief");
  await expect(page).toHaveURL(/crew=brief/);
  await expect(rows).toHaveCount(2);
  await rows.getByRole("button", { name: "env:prod" }).click();
  await expect(page).toHaveURL(/meta=env%3Aprod/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(lighthouses.slice(0, 8));

  // A reload keeps the filters.
  await page.reload();
  await expect(page.getByLabel("Crew", { exact: true })).toHaveValue("brief");
  await expect(page.getByRole("button", { name: "Remove tag filter env:prod" })).toBeVisible();
  await expect(rows).toHaveCount(1);

  // Saved as a view, cleared, applied again.
  await openViews(page);
  await page.getByRole("menuitem", { name: "Save current filters…" }).click();
  await page.getByLabel("Name", { exact: true }).fill("brief prod");
  await page.getByRole("button", { name: "Save view" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  await expect(rows).toHaveCount(3);
  await openViews(page);
  await page.getByRole("menuitem", { name: "brief prod" }).click();
  await expect(page).toHaveURL(/crew=brief/);
  await expect(page).toHaveURL(/meta=env%3Aprod/);
  await expect(rows).toHaveCount(1);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows).toHaveCount(3);

  // Search as you type: no button to press.
  await page.getByLabel("Search", { exact: true }).fill("bridges");
  await expect(page).toHaveURL(/q=bridges/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Brief");

  // The whole row opens the run; back returns to the filtered list.
  await rows.first().locator("td").nth(5).click();
  await expect(page).toHaveURL(/\/crews\/brief\/runs\/[0-9a-f-]{36}$/);
  await page.goBack();
  await expect(page).toHaveURL(/q=bridges/);
  await expect(page.getByLabel("Search", { exact: true })).toHaveValue("bridges");
  await page.getByRole("button", { name: "Clear filters" }).click();

  // A date range that ends before it starts is said, not sent.
  await page.getByLabel("To", { exact: true }).fill("2030-01-01");
  await expect(page).toHaveURL(/to=2030-01-01/);
  await page.getByLabel("From", { exact: true }).fill("2030-01-10");
  await expect(page.getByText("“From” is after “To”")).toBeVisible();
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(page.url()).not.toContain("from=");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByText("“From” is after “To”")).toHaveCount(0);
  await expect(rows).toHaveCount(3);

  // Bulk re-run: both brief runs start again with the same inputs.
  await page.getByLabel("Crew", { exact: true }).selectOption("brief");
  await expect(rows).toHaveCount(2);
  await page.getByRole("checkbox", { name: "Select all runs on this page" }).check();
  await page.getByRole("button", { name: "Re-run 2" }).click();
  await expect(page.getByText("Started 2 runs")).toBeVisible();
  // The toast leads to the runs it started.
  const toastLinks = page.locator("[data-sonner-toast]").getByRole("link", { name: /^Brief · / });
  await expect(toastLinks).toHaveCount(2);
  await expect(toastLinks.first()).toHaveAttribute("href", /^\/crews\/brief\/runs\/[0-9a-f-]{36}$/);
  await expect(rows).toHaveCount(4);
  await page.getByLabel("Search", { exact: true }).fill("lighthouses");
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Clear filters" }).click();

  // Bulk stop, behind a confirmation: only active runs count.
  const review = await start("review", { subject: "tides" });
  await expect
    .poll(async () => {
      const res = await request.get(`/api/crews/review/status/${review}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      return ((await res.json()) as { status: string }).status;
    })
    .toBe("pending_human_input");
  await page.getByLabel("Status", { exact: true }).selectOption({ label: "Awaiting review" });
  await expect(rows).toHaveCount(1);
  await page.getByRole("checkbox", { name: `Select run ${review.slice(0, 8)}` }).check();
  await page.getByRole("button", { name: "Stop 1" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Stop 1 run" }).click();
  await expect(page.getByText("Stopped 1 run")).toBeVisible();

  // Filters that hide every run say so, and clear in one click.
  await expect(page.getByText("No runs match these filters")).toBeVisible();
  await expect(page.getByText("6 runs exist; these filters hide every one.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).last().click();
  await expect(rows).toHaveCount(6);
  await expect(rows.filter({ hasText: review.slice(0, 8) }).locator("[data-status]")).toHaveText(
    "Stopped",
  );
  await checkScreen(page, info, "runs-list");

  await page.getByRole("link", { name: "Overview" }).click();
  await expect(
    page.getByRole("img", { name: /Runs per day over the last 14 days: / }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /Awaiting review/ })).toHaveAttribute(
    "href",
    "/inbox",
  );
  await checkScreen(page, info, "overview");
});
