import { expect, test } from "@playwright/test";
import { checkScreen, signIn } from "./helpers";

// An agent files an issue and a sub-issue; a person finds them in the dashboard, with the run
// that created them.
const TOKEN = "e2e-org-token-0123456789abcdef";

test("issues filed by a crew show in the tracker pages", async ({ page, request }, info) => {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const kickoff = await request.post("/api/crews/tracker-crew/kickoff", {
    headers,
    data: { inputs: { problem: "Dark mode flickers on load" } },
  });
  const id = (await kickoff.json()).kickoff_id as string;
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/crews/tracker-crew/status/${id}`, { headers })).json())
          .status,
      { timeout: 30_000 },
    )
    .toBe("completed");

  await signIn(page);
  await page.getByRole("link", { name: "Issues", exact: true }).click();
  // Filters apply as they are typed: no button to press, the URL says what is shown.
  await expect(page.getByRole("button", { name: "Filter" })).toBeHidden();
  await page.getByLabel("Search").fill("Dark mode flickers");
  await expect(page).toHaveURL(/[?&]q=Dark\+mode\+flickers/);
  const row = page.getByRole("row", { name: /ENG-\d+ Report: Dark mode flickers on load/ });
  await expect(row).toBeVisible();
  await checkScreen(page, info, "tracker-issues");

  await row.getByRole("link").click();
  await expect(
    page.getByRole("heading", { name: "Report: Dark mode flickers on load" }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /ENG-\d+/ }).last()).toBeVisible(); // the sub-issue
  await expect(page.getByRole("link", { name: "a run of tracker-crew" }).first()).toHaveAttribute(
    "href",
    `/crews/tracker-crew/runs/${id}`,
  );
  // The description is formatted in the browser: shoot it once its placeholder has gone.
  const description = page.locator('[aria-labelledby="issue-description"]');
  await expect(description.locator(".bg-muted")).toHaveCount(0);
  await expect(description).not.toHaveText(/^Description$/);
  await checkScreen(page, info, "tracker-issue");
});
